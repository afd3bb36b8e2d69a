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
  return mod.toDataset(inputs, opts);
}
