// A raw-output folder whose isolation record says the server and the load generator were pinned (as the lab's
// driver writes it), removed when the test ends: what gradeRun needs to grade records built by a test.
import fs from 'node:fs';
import path from 'node:path';
import { tmpDir } from '../tools/util.mjs';

export function pinnedRaw(t, name) {
  const raw = tmpDir(name);
  t.after(() => fs.rmSync(raw, { recursive: true, force: true }));
  fs.writeFileSync(path.join(raw, 'isolation-lab-3.4.txt'), 'pinned server=0 load=1\n');
  return raw;
}
