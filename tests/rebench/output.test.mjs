// A rebench run that stops halfway must leave no half-written dataset: the dataset is written to a
// temporary file and renamed into place after the raw outputs, and stale staging is cleaned up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stageRaw, commitDataset, discardStage, datasetPath, rawPath } from '../../scripts/lib/rebench/output.mjs';

function tmp() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'rebench-output-'));
}
const listAll = (dir) => fs.readdirSync(dir, { recursive: true }).map(String).sort();

test('an interruption between writing and renaming leaves the previous dataset and raw files untouched', (t) => {
  const out = tmp();
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  // A complete earlier run.
  let stage = stageRaw(out, 'rebench-x');
  fs.writeFileSync(path.join(stage, 'run-1.txt'), 'old');
  commitDataset(out, { id: 'rebench-x', rows: [[1]] }, stage);
  const before = fs.readFileSync(datasetPath(out, 'rebench-x'), 'utf8');
  // A new run dies after writing everything but before the renames.
  stage = stageRaw(out, 'rebench-x');
  fs.writeFileSync(path.join(stage, 'run-1.txt'), 'new');
  assert.throws(() => commitDataset(out, { id: 'rebench-x', rows: [[2]] }, stage, { beforeRename: () => { throw new Error('SIGKILL here'); } }), /SIGKILL/);
  assert.equal(fs.readFileSync(datasetPath(out, 'rebench-x'), 'utf8'), before, 'old dataset intact');
  assert.equal(fs.readFileSync(path.join(rawPath(out, 'rebench-x'), 'run-1.txt'), 'utf8'), 'old', 'old raw output intact');
  assert.ok(!listAll(out).some((f) => f.endsWith('.json') && f.includes('.partial-')), 'no temporary dataset file left');
  discardStage(stage);
  assert.ok(!listAll(out).some((f) => f.includes('.partial-')), `nothing staged left: ${listAll(out)}`);
});

test('a fresh run that stops before its commit writes no dataset at all; the next run removes stale staging', (t) => {
  const out = tmp();
  t.after(() => fs.rmSync(out, { recursive: true, force: true }));
  const stage = stageRaw(out, 'rebench-y');
  fs.writeFileSync(path.join(stage, 'half.txt'), 'half');
  // (the process is killed here: no commit, no cleanup)
  assert.ok(!fs.existsSync(datasetPath(out, 'rebench-y')));
  assert.ok(!fs.existsSync(rawPath(out, 'rebench-y')), 'raw-output/ID appears only with its dataset');
  const next = stageRaw(out, 'rebench-y');
  assert.ok(!fs.existsSync(stage) || stage === next, 'stale staging directory removed');
  const file = commitDataset(out, { id: 'rebench-y', rows: [[3]] }, next);
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')).rows, [[3]]);
  assert.deepEqual(listAll(path.join(out, 'raw-output')), ['rebench-y']);
});
