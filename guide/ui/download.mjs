// What the page's first download fetches, as one chunk (guide/ui/main.mjs): the archive writers and the list of the
// bundle's files. Neither is needed to show the files, so neither is in the first-load script.
export { zip, tarGz } from './archive.mjs';
export { bundleFiles } from './readme.mjs';
