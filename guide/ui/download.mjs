// The page's download, fetched as one chunk on the first click (guide/ui/main.mjs): the bundle's file list, the
// archive writers and the save itself. None of it is needed to show the files, so none of it is first-load script.
import { zip, tarGz } from './archive.mjs';
import { bundleFiles } from './readme.mjs';
import { h } from './dom.mjs';

export { bundleFiles };

/**
 * Saves the bundle of `result` (generated for `answers`, whose permalink is `meta.permalink`) as a .zip or .tar.gz
 * under the name `root`; → the number of files in it.
 */
export async function saveBundle(kind, result, answers, meta, root) {
  const files = bundleFiles(result, answers, meta);
  const bytes = kind === 'zip' ? zip(files, { root }) : await tarGz(files, { root });
  const blob = new Blob([bytes], { type: kind === 'zip' ? 'application/zip' : 'application/gzip' });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: root + (kind === 'zip' ? '.zip' : '.tar.gz'), class: 'guide-offscreen' });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  return files.length;
}
