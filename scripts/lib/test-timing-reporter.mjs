// A node:test reporter that counts passed, failed and skipped tests (suites are not tests) and writes one JSON
// line at the end. scripts/test runs each test file with it and prints the per-file timing summary, then each
// failure's name and message again at the very end: CI keeps only the tail of a long log, so a failure far up in
// the spec output would otherwise be invisible there.
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
  const counts = { passed: 0, failed: 0, skipped: 0, failures: [] };
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    if (data.details?.type === 'suite') continue;
    if (data.skip !== undefined || data.todo !== undefined) counts.skipped += 1;
    else if (type === 'test:pass') counts.passed += 1;
    else {
      counts.failed += 1;
      counts.failures.push({ name: data.name, message: messageOf(data.details?.error) });
    }
  }
  yield `${JSON.stringify(counts)}\n`;
}
