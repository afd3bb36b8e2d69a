// Loaded with --import by scripts/test into the node --test that runs several files together: in each file's own
// process (node's test runner starts one per file, with NODE_TEST_CONTEXT set) it writes, at exit, when that process
// started and ended into TEST_CLOCK_DIR, so the timing summary can give each file its own wall time. The runner
// reports a file's tests only once the file has finished, so the reporter alone cannot time a file. Does nothing in
// the runner's own process or without TEST_CLOCK_DIR.
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.env.TEST_CLOCK_DIR;
if (dir && process.env.NODE_TEST_CONTEXT && process.argv[1]) {
  const file = relative(process.cwd(), process.argv[1]);
  process.on('exit', () => {
    writeFileSync(join(dir, `${process.pid}.json`), `${JSON.stringify({ file, seconds: (Date.now() - performance.timeOrigin) / 1000 })}\n`);
  });
}
