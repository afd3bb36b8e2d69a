// A node:test reporter that counts passed, failed and skipped tests (suites are not tests) and writes one JSON
// line at the end. scripts/test runs each test file with it and prints the per-file timing summary.
export default async function* countingReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for await (const { type, data } of source) {
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    if (data.details?.type === 'suite') continue;
    if (data.skip !== undefined || data.todo !== undefined) counts.skipped += 1;
    else if (type === 'test:pass') counts.passed += 1;
    else counts.failed += 1;
  }
  yield `${JSON.stringify(counts)}\n`;
}
