// Writes a generated bundle into --out for guide/cli.mjs without ever following a symbolic link: each
// directory is created by this process (mkdir, never recursive over something that exists) or verified
// to be a real directory whose resolved path is the expected one under --out, and each file is opened
// with O_CREAT | O_EXCL | O_NOFOLLOW, so a link planted at any path component (out/etc → /tmp/victim)
// or at the file itself is refused instead of written through. Existing files are replaced only with
// --force, and then by a new file renamed over them, never by writing into what is there.
import { lstatSync, mkdirSync, openSync, writeSync, closeSync, realpathSync, renameSync, rmSync, constants } from 'node:fs';
import { resolve, join, dirname, sep, relative } from 'node:path';
import { randomBytes } from 'node:crypto';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/** A refusal with a one-line message and the CLI's exit status for it (see README, "Exit status"). */
export class WriteError extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}
export const EXIT = Object.freeze({ OUT_REFUSED: 4, EXISTS: 5, WRITE_FAILED: 6 });

const why = (e) => ({ EACCES: 'permission denied', EPERM: 'not permitted', EROFS: 'read-only file system', ENOSPC: 'no space left on the device', ENOTDIR: 'a path component is a file, not a directory', ELOOP: 'a path component is a symbolic link', EEXIST: 'it already exists' }[e.code] || e.code || e.message);

function lstat(p) {
  try { return lstatSync(p); } catch (e) { if (e.code === 'ENOENT') return null; throw e; }
}

// The output root: created if missing (its parent must exist), never a symbolic link, never "/".
function prepareRoot(out) {
  const root = resolve(out);
  if (root === sep) throw new WriteError('--out /: refusing to write a bundle into the root directory; name a new directory, e.g. --out ./rails-config', EXIT.OUT_REFUSED);
  const st = lstat(root);
  if (st?.isSymbolicLink()) throw new WriteError(`--out ${out}: is a symbolic link; name a real directory`, EXIT.OUT_REFUSED);
  if (st && !st.isDirectory()) throw new WriteError(`--out ${out}: exists and is not a directory`, EXIT.OUT_REFUSED);
  if (!st) {
    // Missing parents one by one (Node's recursive mkdir loops for ever on some paths, e.g. under /proc).
    const missing = [];
    for (let p = root; !lstat(p); p = dirname(p)) missing.unshift(p);
    for (const p of missing) {
      try { mkdirSync(p, { mode: 0o755 }); } catch (e) { throw new WriteError(`--out ${out}: cannot create ${p}: ${why(e)}`, EXIT.WRITE_FAILED); }
    }
  }
  // Links above --out are the user's own choice (a home on another disk); from here down none is followed.
  return { root, real: realpathSync(root) };
}

// Each directory between root and the file: made here, or an existing real directory at the expected place.
function ensureDir(base, dir) {
  let cur = base.root;
  for (const part of relative(base.root, dir).split(sep).filter(Boolean)) {
    cur = join(cur, part);
    let st = lstat(cur);
    if (!st) {
      try { mkdirSync(cur, { mode: 0o755 }); } catch (e) { if (e.code !== 'EEXIST') throw new WriteError(`cannot create ${cur}: ${why(e)}`, EXIT.WRITE_FAILED); }
      st = lstat(cur);
    }
    if (st.isSymbolicLink()) throw new WriteError(`refusing to write through ${cur}: it is a symbolic link (to ${safeReadlink(cur)}); remove it or choose another --out`, EXIT.OUT_REFUSED);
    if (!st.isDirectory()) throw new WriteError(`refusing to write into ${cur}: it is not a directory`, EXIT.OUT_REFUSED);
    if (realpathSync(cur) !== join(base.real, relative(base.root, cur))) throw new WriteError(`refusing to write into ${cur}: it resolves outside ${base.root}`, EXIT.OUT_REFUSED);
  }
}

function safeReadlink(p) {
  try { return realpathSync(p); } catch { return 'a missing target'; }
}

function writeNew(path, content) {
  const fd = openSync(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
  try { writeSync(fd, content); } finally { closeSync(fd); }
}

/**
 * Checks every target first (nothing is written when one is refused), then writes.
 * files: [{path, content}] with relative paths. Returns the number of files written.
 */
export function writeBundle(out, files, { force = false } = {}) {
  const base = prepareRoot(out);
  const plan = files.map((f) => {
    const target = resolve(base.root, f.path);
    if (!target.startsWith(base.root + sep)) throw new WriteError(`refusing to write ${f.path}: it is outside --out`, EXIT.OUT_REFUSED);
    return { target, content: f.content };
  });
  for (const { target } of plan) {
    // Directories that exist must be real; a link or a file at the target is refused (a file only without --force).
    let dir = dirname(target);
    while (dir !== base.root && !lstat(dir)) dir = dirname(dir);
    if (dir !== base.root) ensureDir(base, dir);
    const st = lstat(target);
    if (st?.isSymbolicLink()) throw new WriteError(`refusing to write ${target}: it is a symbolic link; remove it`, EXIT.OUT_REFUSED);
    if (st && !st.isFile()) throw new WriteError(`refusing to write ${target}: it exists and is not a file`, EXIT.OUT_REFUSED);
    if (st && !force) throw new WriteError(`${target} exists; nothing was written (add --force to replace the bundle's files)`, EXIT.EXISTS);
  }
  for (const { target, content } of plan) {
    ensureDir(base, dirname(target));
    try {
      if (!lstat(target)) { writeNew(target, content); continue; }
      // --force: a new file beside it, renamed over it (rename replaces the name, it never writes through a link).
      const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      writeNew(tmp, content);
      try { renameSync(tmp, target); } catch (e) { rmSync(tmp, { force: true }); throw e; }
    } catch (e) {
      if (e instanceof WriteError) throw e;
      throw new WriteError(`cannot write ${target}: ${why(e)}`, e.code === 'ELOOP' || e.code === 'EEXIST' ? EXIT.OUT_REFUSED : EXIT.WRITE_FAILED);
    }
  }
  return plan.length;
}
