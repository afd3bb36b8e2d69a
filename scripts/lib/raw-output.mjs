// raw-output/: the unedited output of benchmark tools, published next to each dataset. Everything in it
// comes from pull requests, so it is published as plain data only: an allow-list of text extensions
// (anything a browser could run or render as a page — .html, .svg, .js, .xml… — is refused), regular
// files only (a symbolic link could publish a file of the machine that builds the site), bounded sizes,
// and copied byte for byte into _site/raw-output/ by scripts/build-assets.mjs. Jekyll never sees the
// folder (_config.yml excludes it and keeps the copy), so front matter or Liquid in a file stays text.
import { lstatSync, readdirSync, openSync, readSync, closeSync, mkdirSync, copyFileSync, rmSync, existsSync, constants } from 'node:fs';
import { join, extname, relative } from 'node:path';

// Extensions and why: tool output (.txt, .log), data (.json, .csv, .tsv, .dat), and the per-run files
// scripts/rebench writes (.load, .status, .warmup, .env, .skip, .jemalloc-maps; the
// measurement protocol's .gate, .protocol and .processes; .ruby naming the Ruby that served a run; the logging
// experiment's .logbytes, how much the Rails log grew in a run, and .logsample, its first lines). GitHub Pages serves the
// first six as text/plain, application/json or text/csv and the rest as application/octet-stream:
// none of them is a page, an image or a script.
export const RAW_EXTENSIONS = Object.freeze(['.txt', '.log', '.json', '.csv', '.tsv', '.dat', '.load', '.status', '.warmup', '.env', '.skip', '.jemalloc-maps',
  '.gate', '.protocol', '.processes', '.ruby', '.logbytes', '.logsample']);
// files: a bound on what a pull request can add, not a hosting limit. Raised from 5,000 to 10,000 (2026-11-26): one
// protocol run of 10 rounds with open-loop steps writes about 1,500 files (gate, monitor, protocol and load per run).
export const RAW_LIMITS = Object.freeze({ fileBytes: 4 * 1024 * 1024, files: 10000 });
const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}$/;

// The allowed extension of a file name ("x.jemalloc-maps" → ".jemalloc-maps"), or null.
function allowedExtension(name) {
  return RAW_EXTENSIONS.find((ext) => name.endsWith(ext) && name.length > ext.length) || null;
}

function hasNul(file, size) {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const buf = Buffer.alloc(Math.min(size, 65536));
    for (let pos = 0; pos < size; pos += buf.length) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (buf.subarray(0, n).includes(0)) return true;
      if (n === 0) break;
    }
    return false;
  } finally { closeSync(fd); }
}

/**
 * Problems with what is under `root`/raw-output: [{ file (relative to root), reason, fix }], and the
 * files that may be published: { problems, files }. Reads no file through a link.
 */
export function checkRawOutput(root) {
  const dir = join(root, 'raw-output');
  const problems = [];
  const files = [];
  const rel = (p) => relative(root, p);
  const add = (p, reason, fix) => problems.push({ file: rel(p), reason, fix });
  if (!existsSync(dir)) return { problems, files };
  const layout = 'raw output goes in raw-output/<dataset id>/<file> (scripts/import puts it there)';
  for (const id of readdirSync(dir).sort()) {
    const sub = join(dir, id);
    const st = lstatSync(sub);
    if (st.isSymbolicLink()) { add(sub, 'a symbolic link: the build would publish whatever it points to', 'commit the files themselves, not a link'); continue; }
    if (!st.isDirectory()) { add(sub, 'a file directly in raw-output/', layout); continue; }
    if (!ID.test(id)) { add(sub, `the folder name "${id}" is not a dataset id`, 'name the folder after the dataset (lowercase letters, digits and single hyphens)'); continue; }
    for (const name of readdirSync(sub).sort()) {
      const file = join(sub, name);
      const fst = lstatSync(file);
      if (fst.isSymbolicLink()) { add(file, 'a symbolic link: the build would publish whatever it points to', 'commit the file itself, not a link'); continue; }
      if (fst.isDirectory()) { add(file, 'a folder inside a dataset\'s raw output', layout); continue; }
      if (!fst.isFile()) { add(file, 'not a regular file', 'commit a plain text file'); continue; }
      const ext = allowedExtension(name);
      if (!ext) { add(file, `"${extname(name) || name}" is not a plain-data extension: raw output is published as text only`, `rename it to end in one of ${RAW_EXTENSIONS.join(' ')} (e.g. ${name.replace(/\.[^.]*$/, '')}.txt) if it is tool output, or leave it out`); continue; }
      if (!NAME.test(name)) { add(file, 'the file name has characters other than letters, digits, ".", "_", "+" and "-"', 'rename it'); continue; }
      if (fst.size > RAW_LIMITS.fileBytes) { add(file, `${(fst.size / 1048576).toFixed(1)} MiB; a raw output file may be at most ${RAW_LIMITS.fileBytes / 1048576} MiB`, 'keep the part the dataset was made from, or link the full output from source.raw_output'); continue; }
      if (hasNul(file, fst.size)) { add(file, 'binary content (a NUL byte): raw output is published as text only', 'commit the tool\'s text output'); continue; }
      files.push(file);
    }
  }
  if (files.length > RAW_LIMITS.files) add(dir, `${files.length} files; raw-output/ may hold at most ${RAW_LIMITS.files}`, 'keep the files the datasets were made from');
  return { problems, files };
}

export function formatRawProblem(p) {
  return `${p.file}:1:1: raw-output: ${p.reason} — fix: ${p.fix}`;
}

/**
 * Copies the allowed files of `root`/raw-output byte for byte to `site`/raw-output (replacing what was
 * there). Throws, having copied nothing, when anything in raw-output/ is refused.
 */
export function publishRawOutput(root, site) {
  const { problems, files } = checkRawOutput(root);
  if (problems.length) {
    throw Object.assign(new Error(`${problems.length} raw output problem(s); nothing was published:\n${problems.map(formatRawProblem).join('\n')}`), { problems });
  }
  const dest = join(site, 'raw-output');
  rmSync(dest, { recursive: true, force: true });
  for (const file of files) {
    const target = join(dest, relative(join(root, 'raw-output'), file));
    mkdirSync(join(target, '..'), { recursive: true });
    copyFileSync(file, target, constants.COPYFILE_EXCL);
  }
  return files.length;
}
