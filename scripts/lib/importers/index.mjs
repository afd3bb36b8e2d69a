// Registry of importers: tool name → module with parse(text) and toDataset(inputs, opts).
import * as ab from './ab.mjs';
import * as wrk from './wrk.mjs';
import * as hyperfine from './hyperfine.mjs';
import * as benchmarkIps from './benchmark-ips.mjs';
import * as httperf from './httperf.mjs';

export const IMPORTERS = { ab, wrk, hyperfine, 'benchmark-ips': benchmarkIps, httperf };

// inputs: [{ text, label, file, rawPath? }]; opts: { id, title, topic, author, … } (see scripts/import --help).
export function importDataset(tool, inputs, opts) {
  const mod = IMPORTERS[tool];
  if (!mod) throw new Error(`unknown tool "${tool}"; use one of: ${Object.keys(IMPORTERS).join(', ')}`);
  if (!inputs.length) throw new Error('give at least one output file');
  try {
    return mod.toDataset(inputs, opts);
  } catch (e) {
    if (e.constructor !== Error && !(e instanceof SyntaxError)) throw e; // a bug (TypeError, ReferenceError…), not unreadable input
    // Say which file could not be read, and show what the tool itself said there: a tool that
    // refused to run (bad flags, no server) prints its own reason instead of a report.
    const bad = inputs.find((i) => { try { mod.parse(i.text); return false; } catch { return true; } });
    if (!bad) throw e;
    const quote = toolErrorLines(bad.text);
    throw new Error(`${bad.file}: ${e.message}${quote.length ? `\n  the file says:\n${quote.map((l) => `    ${l}`).join('\n')}` : ' (the file is empty)'}`);
  }
}

// The lines of a tool's output that explain why there is no report (usage errors, refusals);
// else its first lines, so the contributor sees what they actually saved.
export function toolErrorLines(text) {
  const lines = String(text).split('\n').map((l) => l.trimEnd()).filter((l) => l.trim());
  const reasons = lines.filter((l) => /error|must|unable|invalid|refused|not found|no such|usage|cannot|failed|unknown|denied/i.test(l));
  return (reasons.length ? reasons : lines).slice(0, 3).map((l) => (l.length > 200 ? `${l.slice(0, 197)}…` : l));
}
