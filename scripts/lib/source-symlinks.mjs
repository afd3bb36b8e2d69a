// Symbolic links committed to the repository. Jekyll (outside GitHub's --safe mode, as scripts/build runs it)
// follows them and publishes what they point to, so a link such as assets/x.txt → /proc/self/environ in a pull
// request would publish a file of the machine that builds the site; a link is also easy to miss in review.
// The repository needs none: every committed link is refused by the build and scripts/validate.
import { execFileSync } from 'node:child_process';

/** Problems [{ file, reason, fix }] for committed symbolic links under `root`; none when git is not there. */
export function committedSymlinks(root) {
  let out;
  try {
    out = execFileSync('git', ['ls-files', '-s', '-z'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
  } catch { return []; }
  return out.split('\0').filter((e) => e.startsWith('120000 ')).map((e) => e.slice(e.indexOf('\t') + 1)).map((file) => ({
    file, field: '(link)', reason: 'a committed symbolic link: the site build would publish whatever it points to', fix: 'commit the file itself, or remove the link',
  }));
}
