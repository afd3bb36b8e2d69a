#!/usr/bin/env node
// Used by scripts/server: re-runs build-assets when a dataset or the vocabulary changes.
import { watch } from 'node:fs';
import { spawn } from 'node:child_process';

const root = new URL('../', import.meta.url).pathname;
let timer = null;
let running = false;
const rebuild = () => {
  if (running) { timer = setTimeout(rebuild, 300); return; }
  running = true;
  const p = spawn(process.execPath, ['scripts/build-assets.mjs'], { cwd: root, stdio: 'inherit' });
  p.on('exit', () => { running = false; });
};
for (const dir of ['_data/datasets', '_data']) {
  watch(`${root}${dir}`, () => { clearTimeout(timer); timer = setTimeout(rebuild, 300); });
}
console.log('watch-assets: rebuilding charts when _data/datasets changes');
