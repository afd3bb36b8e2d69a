#!/usr/bin/env node
// Scaling Rails configuration wizard, command line.
//   node guide/cli.mjs --answers FILE.json [--format json|files] [--out DIR [--force]] [--date YYYY-MM-DD] [--permalink-base URL] [--allow-errors]
//   node guide/cli.mjs --check PATH… [--answers FILE.json] [--format text|json|sarif] [--fail-on error|warning|note]
// Exit status: 0 ok (warnings and notes included); 1 (--check) findings at or above --fail-on; 2 invalid answers
// (message names the key and the allowed values) or (--check) unreadable input;
// 3 the bundle has error-level findings (a stack that cannot boot, an impossible topology, a limit the server refuses)
// and --allow-errors was not given (json is still printed, --format files writes nothing); 4 --out refused (a symbolic link in it, not a
// directory, "/"); 5 a file of the bundle exists in --out (--force replaces it); 6 writing failed (permissions,
// disk full); 64 usage error. Nothing is written when 4 or 5 is returned.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generate, validateAnswers, QUESTIONS, GENERATOR_VERSION } from './engine/index.mjs';

const USAGE = `usage: node guide/cli.mjs --answers FILE.json [--format json|files] [--out DIR]
       node guide/cli.mjs --check PATH… [--answers FILE.json] [--format text|json|sarif] [--fail-on error|warning|note] [--time-limit SECONDS]
  --check PATH…    read a Rails app root and/or server config files or folders, detect the answers, compare
                   with the bundle the wizard generates for them; exit 1 on findings at or above --fail-on
                   (default error), 2 on unreadable input or nothing to check. --answers then sets what files cannot
                   tell (cores, RAM…); --time-limit stops the check after SECONDS (default 60; exit 2)
  --answers FILE   JSON object with any of: ${QUESTIONS.map((q) => q.key).join(', ')} (missing keys take defaults; "-" reads stdin)
  --format json    print {"files":[{"path","content"}],"advice":[…],"warnings":[…]} (default without --out)
  --format files   write the bundle into --out DIR (default with --out)
  --out DIR        output directory for --format files (created if missing; no symbolic link in it is followed)
  --force          replace files of an earlier bundle in --out (default: exit 5 and write nothing)
  --date DATE      date written into file headers (YYYY-MM-DD; default today)
  --permalink-base URL  site URL prefix for the permalink in file headers (e.g. https://example.org)
  --allow-errors   exit 0 and write the bundle even when it has error-level findings (default: exit 3, and
                   --format files writes nothing)
exit status: 0 ok, 1 (--check) findings at or above --fail-on, 2 invalid answers or (--check) unreadable input,
  3 error-level findings (see "warnings" with severity "error"), 4 --out refused (symbolic link, not a directory, /),
  5 a bundle file exists in --out (use --force), 6 writing failed (permissions, disk full), 64 usage`;

function fail(code, message) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function parseArgs(argv) {
  const opts = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const take = () => {
      if (i + 1 >= argv.length) fail(64, `${arg} needs a value\n${USAGE}`);
      return argv[++i];
    };
    switch (arg) {
      case '--answers': opts.answers = take(); break;
      case '--check': opts.check = opts.check || []; opts.check.push(take()); while (argv[i + 1] && !argv[i + 1].startsWith('--')) opts.check.push(argv[++i]); break;
      case '--fail-on': opts.failOn = take(); break;
      case '--time-limit': opts.timeLimit = take(); break;
      case '--format': opts.format = take(); break;
      case '--out': opts.out = take(); break;
      case '--date': opts.date = take(); break;
      case '--permalink-base': opts.base = take(); break;
      case '--allow-errors': opts.allowErrors = true; break;
      case '--force': opts.force = true; break;
      case '-h': case '--help': process.stdout.write(`${USAGE}\n`); process.exit(0); break;
      case '--version': process.stdout.write(`${GENERATOR_VERSION}\n`); process.exit(0); break;
      default: fail(64, `unknown option ${arg}\n${USAGE}`);
    }
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
if (opts.check) {
  const { runCheck } = await import('./check/cli-check.mjs');
  const code = await runCheck(opts, { fail, usage: USAGE });
  // Exit once the report is flushed: stdout to a pipe is asynchronous, and exit() would cut it short.
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(code);
}
if (!opts.answers) fail(64, `--answers is required\n${USAGE}`);
const format = opts.format || (opts.out ? 'files' : 'json');
if (!['json', 'files'].includes(format)) fail(64, `--format must be json or files\n${USAGE}`);
if (format === 'files' && !opts.out) fail(64, `--format files needs --out DIR\n${USAGE}`);
if (opts.date && !/^\d{4}-\d{2}-\d{2}$/.test(opts.date)) fail(64, '--date must be YYYY-MM-DD');

let text;
try {
  text = readFileSync(opts.answers === '-' ? 0 : opts.answers, 'utf8');
} catch (e) {
  fail(2, `cannot read answers file ${opts.answers}: ${e.code || e.message}`);
}
let answers;
try {
  answers = JSON.parse(text);
} catch (e) {
  fail(2, `answers file is not valid JSON: ${e.message}`);
}
const errors = validateAnswers(answers);
if (errors.length) {
  fail(2, errors.map((e) => `invalid answer: ${e.message}; allowed: ${e.allowed.join(', ')}`).join('\n'));
}

const result = generate(answers, { date: opts.date, base: opts.base });
const errorFindings = result.warnings.filter((w) => w.severity === 'error');
// A bundle with error-level findings is printed for reading (json) but never written where an operator deploys it.
const refuse = errorFindings.length > 0 && !opts.allowErrors;
if (format === 'json') {
  const out = {
    files: result.files.map(({ path, content }) => ({ path, content })),
    advice: result.advice.map(({ id, title, body, evidence }) => ({ id, title, body, evidence })),
    warnings: result.warnings,
    model: result.model,
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
} else if (refuse) {
  process.stderr.write(`nothing written to ${resolve(opts.out)}: the bundle has error-level findings\n`);
} else {
  // No link followed, nothing overwritten without --force, every failure one line with its exit status.
  const { writeBundle, WriteError } = await import('./bundle-writer.mjs');
  try {
    const n = writeBundle(opts.out, result.files, { force: opts.force });
    process.stdout.write(`wrote ${n} files to ${resolve(opts.out)}\n`);
  } catch (e) {
    if (!(e instanceof WriteError)) fail(6, `cannot write the bundle: ${e.code || e.message}`);
    fail(e.code, e.message);
  }
  for (const w of result.warnings) process.stderr.write(`${w.severity}: ${w.message}\n`);
}
if (refuse) {
  for (const w of errorFindings) process.stderr.write(`error [${w.id}]: ${w.message} ${w.suggestion || ''}\n`);
  process.stderr.write(`${errorFindings.length} error-level finding(s): exit status 3 (--allow-errors to accept them)\n`);
  process.exitCode = 3;
}
