#!/usr/bin/env node
// Prints the doctor's corpus table (README "The doctor on public apps"): node scripts/doctor-corpus.mjs
import { runCorpus, table } from './lib/doctor-corpus.mjs';

const result = runCorpus();
process.stdout.write(`${table(result)}\n`);
for (const r of result.rows) {
  for (const f of r.falsePositives) process.stderr.write(`not judged a problem: ${r.app} ${f.severity} ${f.rule} ${f.file}:${f.line} ${f.message}\n`);
  for (const p of r.missed) process.stderr.write(`missed: ${r.app} ${p.rule} ${p.file}: ${p.why}\n`);
}
