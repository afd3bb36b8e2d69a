// A node:test reporter that counts passed, failed and skipped tests per test file (suites are not tests) and writes
// one JSON line per file at the end: {file, passed, failed, skipped, failures}. scripts/test runs the test files
// with it and prints the per-file timing summary, then each failure's name and message again at the very end: CI
// keeps only the tail of a long log, so a failure far up in the spec output would otherwise be invisible there.
// A file whose process fails without a test (a crash, an exit) counts as one failed test named after the file.
import { relative } from 'node:path';

const HEAD = 2000; // characters kept from the start and the end of a long failure message
const TAIL = 2000;

const clip = (text) => (text.length <= HEAD + TAIL + 40 ? text
  : `${text.slice(0, HEAD)}\n  … (${text.length - HEAD - TAIL} characters left out) …\n${text.slice(-TAIL)}`);

const messageOf = (error) => {
  const cause = error?.cause ?? error;
  const text = cause?.message ?? String(cause);
  return clip(String(text));
};

export default async function* countingReporter(source) {
  const files = new Map();
  const of = (file) => {
    const key = file ? relative(process.cwd(), file) : '';
    if (!files.has(key)) files.set(key, { file: key, passed: 0, failed: 0, skipped: 0, failures: [] });
    return files.get(key);
  };
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    if (data.details?.type === 'suite') continue;
    const counts = of(data.file);
    if (data.skip !== undefined || data.todo !== undefined) counts.skipped += 1;
    else if (type === 'test:pass') counts.passed += 1;
    else {
      counts.failed += 1;
      counts.failures.push({ name: data.name, message: messageOf(data.details?.error) });
    }
  }
  for (const counts of files.values()) yield `${JSON.stringify(counts)}\n`;
}
