// scripts/test's timing summary: wall time per step, then one row per test file (slowest first) with its counts,
// then every failure again (CI keeps only the tail of a long log). Exits 1 when a file failed or crashed.
//   node scripts/lib/test-summary.mjs RESULTS_DIR STEP|SECONDS…
// RESULTS_DIR holds what scripts/test wrote: the reporter's lines (scripts/lib/test-timing-reporter.mjs) in
// alone-I.json (the I-th file run alone) and together.json; alone.txt ("file|seconds|exit status" per file run
// alone, seconds as the shell measured them); together.txt (the files run together) and together.rc ("exit
// status|seconds" of that node --test), clock/*.json (each file's own process time, scripts/lib/test-file-clock.mjs).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...steps] = process.argv.slice(2);
const lines = (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean) : []);

const reportsIn = (name) => new Map(lines(name).map((line) => JSON.parse(line)).map((r) => [r.file, r]));
const crashed = { passed: 0, failed: 1, skipped: 0, failures: [], note: 'no report (crashed)' };

const rows = [];
for (const [i, line] of lines('alone.txt').entries()) {
  const [file, seconds, rc] = line.split('|');
  // alone-I.json has this one file's line (named '' if node's runner gave no file name).
  const own = reportsIn(`alone-${i}.json`);
  const r = own.get(file) || (own.size === 1 ? [...own.values()][0] : crashed);
  rows.push({ ...r, file, seconds: Number(seconds), note: r.note || (Number(rc) !== 0 && !r.failed ? `exit status ${rc}` : undefined), exitFailed: Number(rc) !== 0 });
}
// A file run together: the wall time of its own process, from start to exit (another file ran beside it); null
// when the process left no record (killed).
const reports = reportsIn('together.json');
const clocked = existsSync(join(dir, 'clock'))
  ? new Map(readdirSync(join(dir, 'clock')).map((n) => JSON.parse(readFileSync(join(dir, 'clock', n), 'utf8'))).map((c) => [c.file, c.seconds])) : new Map();
for (const file of lines('together.txt')) {
  const r = reports.get(file) || crashed;
  rows.push({ ...r, file, seconds: clocked.get(file) ?? null, together: true });
}
const [togetherRc, togetherS] = (lines('together.rc')[0] || '0|0').split('|').map(Number);
const togetherRows = rows.filter((r) => r.together);
if (togetherRc !== 0 && !togetherRows.some((r) => r.failed)) {
  rows.push({ file: '(the files run together)', seconds: togetherS, passed: 0, failed: 1, skipped: 0, failures: [], note: `node --test exited ${togetherRc} with no failing test`, together: true });
}

const fmt = (sec) => {
  if (sec === null) return '?';
  const s = Math.round(sec);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};
console.log('\nTiming summary (wall clock)');
for (const s of steps) {
  const [name, sec] = s.split('|');
  console.log(`  ${name.padEnd(8)} ${fmt(Number(sec)).padStart(7)}`);
  if (name === 'tests' && togetherRows.length) {
    const own = togetherRows.reduce((t, r) => t + r.seconds, 0);
    console.log(`    of which ${togetherRows.length} files together, two at a time: ${fmt(togetherS)} (their own times add up to ${fmt(own)})`);
  }
}
console.log('\nTest files, slowest first (* ran together with another file: its own time, shared with that file)');
console.log(`  ${'file'.padEnd(52)} ${'time'.padStart(8)}  pass  fail  skip`);
for (const r of rows.sort((a, b) => (b.seconds ?? Infinity) - (a.seconds ?? Infinity))) {
  const time = `${fmt(r.seconds)}${r.together ? '*' : ' '}`;
  console.log(`  ${r.file.padEnd(52)} ${time.padStart(8)} ${String(r.passed).padStart(5)} ${String(r.failed).padStart(5)} ${String(r.skipped).padStart(5)}${r.note ? `  ${r.note}` : ''}`);
}
const failures = rows.filter((r) => r.failures?.length);
if (failures.length) console.log('\nFailures (each message clipped to its start and end)');
for (const r of failures) for (const f of r.failures) console.log(`\n✖ ${r.file}: ${f.name}\n${f.message}`);
const total = { passed: 0, failed: 0, skipped: 0 };
for (const r of rows) for (const k of Object.keys(total)) total[k] += r[k];
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);

const failing = rows.filter((r) => r.failed > 0 || r.exitFailed);
if (failing.length) {
  process.stderr.write(`test: failing files:\n${failing.map((r) => `  ${r.file}\n`).join('')}`);
  process.exitCode = 1;
}
