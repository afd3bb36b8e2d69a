#!/usr/bin/env node
// Command line of the open-loop generator (scripts/lib/measure/openloop.mjs). lab/bench runs it inside the lab,
// pinned to the load CPU, with the host's node (scripts/lib/lab/enter.sh mounts it read-only).
//   node scripts/lib/measure/openloop-cli.mjs --url URL --rate R --duration S [--arrival constant|poisson]
//        [--seed N] [--max-in-flight N] [--timeout-ms N] [--late-ms N] [--max-requests N] [--new-connections]
// Exit status: 0 when the schedule ran (failed requests are in the report, not the status), 2 for bad input.
import { runOpenLoop, badOptions, DEFAULTS } from './openloop.mjs';
import { formatReport } from './openloop-report.mjs';

const FLAGS = {
  '--url': ['url', String], '--rate': ['rate', Number], '--duration': ['durationS', Number], '--arrival': ['arrival', String],
  '--seed': ['seed', Number], '--max-in-flight': ['maxInFlight', Number], '--timeout-ms': ['timeoutMs', Number],
  '--late-ms': ['lateMs', Number], '--max-requests': ['maxRequests', Number],
};

export function parseArgs(argv) {
  const o = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--new-connections') { o.keepAlive = false; continue; } // every request a new client
    const f = FLAGS[argv[i]];
    if (!f) throw new Error(`unknown option ${argv[i]} (options: ${Object.keys(FLAGS).join(' ')})`);
    if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
    o[f[0]] = f[1](argv[(i += 1)]);
  }
  for (const need of ['url', 'rate', 'durationS']) if (o[need] === undefined) throw new Error(`--${need === 'durationS' ? 'duration' : need} is required`);
  const bad = badOptions(o);
  if (bad) throw new Error(bad);
  return o;
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`openloop: ${err.message}\n`);
    process.exit(2);
  }
  const r = await runOpenLoop(o);
  process.stdout.write(formatReport(r));
}

if (import.meta.url === `file://${process.argv[1]}`) main();
