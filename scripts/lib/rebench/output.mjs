// Writing a dataset so that an interrupted run never leaves half of one behind.
// Raw outputs are staged in a hidden sibling directory and the dataset JSON in a temporary
// file; both are renamed into place only when everything is written, the dataset last.
// rename(2) within one filesystem is atomic, so a reader sees the old files or the new ones.
import fs from 'node:fs';
import path from 'node:path';

export function datasetPath(outDir, id) {
  return path.join(outDir, '_data', 'datasets', `${id}.json`);
}
export function rawPath(outDir, id) {
  return path.join(outDir, 'raw-output', id);
}

/** A staging directory for raw outputs of dataset `id`, removed again if the run fails. */
export function stageRaw(outDir, id) {
  const parent = path.join(outDir, 'raw-output');
  fs.mkdirSync(parent, { recursive: true });
  // Stale staging directories of earlier interrupted runs are removed first.
  for (const name of fs.readdirSync(parent)) {
    if (name.startsWith(`.${id}.partial-`)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
  const dir = path.join(parent, `.${id}.partial-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

export function discardStage(stageDir) {
  if (stageDir) fs.rmSync(stageDir, { recursive: true, force: true });
}

/**
 * Move the staged raw directory into place and write the dataset, dataset last.
 * `beforeRename` is a test hook: it runs after the files are written and before anything
 * is renamed, which is the window an interruption could hit.
 */
export function commitDataset(outDir, dataset, stageDir, { beforeRename } = {}) {
  const finalJson = datasetPath(outDir, dataset.id);
  fs.mkdirSync(path.dirname(finalJson), { recursive: true });
  const tmpJson = `${finalJson}.partial-${process.pid}`;
  fs.writeFileSync(tmpJson, `${JSON.stringify(dataset, null, 2)}\n`);
  try {
    if (beforeRename) beforeRename();
    const finalRaw = rawPath(outDir, dataset.id);
    if (fs.existsSync(finalRaw)) {
      const old = `${finalRaw}.old-${process.pid}`;
      fs.renameSync(finalRaw, old);
      fs.renameSync(stageDir, finalRaw);
      fs.rmSync(old, { recursive: true, force: true });
    } else {
      fs.renameSync(stageDir, finalRaw);
    }
    fs.renameSync(tmpJson, finalJson);
  } catch (err) {
    fs.rmSync(tmpJson, { force: true });
    throw err;
  }
  return finalJson;
}
