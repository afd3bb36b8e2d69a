// Node only (the CLI): turns PATH arguments into [{path, text} | {path, problem}] for check().
// A Rails app root is read through its known config files only; any other folder is walked with
// limits. Symlinks that lead outside the PATH are not followed, binary and oversized files are refused,
// and nothing is ever executed.
import { lstatSync, statSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative, sep, resolve, isAbsolute } from 'node:path';
import { LIMITS, looksBinary, decodeText } from './limits.mjs';
import { classify } from './classify.mjs';
import { readFile } from './read.mjs';
import { serverConfigPaths, resolveCompose } from './read-deploy.mjs';
import { sidekiqLines, sidekiqConfigOf } from './jobs.mjs';
import { partPatterns, partFiles } from './gemfile-parts.mjs';
import { appUnitPaths, startScriptPaths } from './app-extras.mjs';

const APP_FILES = ['Gemfile', 'Gemfile.lock', 'gems.locked', '.ruby-version', '.tool-versions', 'config/puma.rb', 'config/puma/production.rb',
  'config/unicorn.rb', 'config/pitchfork.rb', 'config/database.yml', 'config/environments/production.rb', '.env.production',
  'config/sidekiq.yml', 'config/queue.yml', 'config/deploy.yml', 'Procfile', 'Dockerfile', 'config/initializers/good_job.rb',
  'docker-compose.yml', 'docker-compose.yaml', 'compose.yml', 'compose.yaml', 'docker-compose.production.yml', 'docker-compose.prod.yml',
  'config/application.rb', 'bin/jobs', 'Rakefile'];
// Rake files the app defines tasks in (a Procfile's `rake jobs:work` may be the app's own task): lib/tasks and up to
// two folders below it, at most LIMITS.rakeFiles files (they count toward LIMITS.files and totalBytes like any other).
const RAKE_DIR = 'lib/tasks';

const problem = (path, code, message, fix) => ({ path, problem: { code, file: path, line: 0, message, fix } });

// ELOOP: symbolic links that lead back to themselves (a → b → a); said as such, not as a missing file.
function linkProblem(shown, e, fix) {
  if (e.code === 'ELOOP') return problem(shown, 'unreadable', 'symbolic link loop (the links lead back to themselves)', 'point the link at a file');
  return problem(shown, 'unreadable', `cannot read (${e.code || e.message})`, fix);
}

/** The .rake files of lib/tasks in an app root (two levels of folders), sorted, without following links to folders. */
function rakeFiles(abs, max) {
  const out = [];
  const walk = (rel, depth) => {
    let names;
    try { names = readdirSync(join(abs, rel)).sort(); } catch { return; }
    for (const n of names) {
      if (out.length >= max) return;
      const r = `${rel}/${n}`;
      let l;
      try { l = lstatSync(join(abs, r)); } catch { continue; }
      if (l.isDirectory() && depth < 2) walk(r, depth + 1);
      else if (!l.isDirectory() && n.endsWith('.rake')) out.push(r);
    }
  };
  walk(RAKE_DIR, 0);
  return out;
}

/**
 * collect(paths) → inputs for check(). Paths in reports: relative to the working directory when inside
 * it (as code scanning expects), else absolute; files of an app root keep their place in the app.
 */
export function collect(paths, limits = LIMITS, cwd = process.cwd()) {
  const out = [];
  const display = (abs, fallback) => {
    const r = relative(cwd, abs);
    return r && !r.startsWith('..') && !isAbsolute(r) ? r : (fallback ?? abs);
  };
  let total = 0;
  let stopped = false;
  const seen = new Set();
  // real path → what was read from it: a PATH given again (an app's unit also named on the command line) is no
  // "nothing to check"; given by hand, a unit the app folder held is compared like any given file (index.mjs).
  const readAt = new Map();
  let again = false;
  const add = (abs, shown, root) => {
    if (stopped) return;
    if (out.length >= limits.files) {
      out.push(problem(shown, 'too-many-files', `more than ${limits.files} files under the PATHs; the rest were not read`, 'pass the config folders or files themselves'));
      stopped = true;
      return;
    }
    let real;
    try {
      real = realpathSync(abs);
    } catch (e) {
      out.push(linkProblem(shown, e, 'check the path and its permissions'));
      return;
    }
    if (root && real !== root && !real.startsWith(root + sep)) {
      out.push(problem(shown, 'symlink-outside', `symbolic link to ${real}, outside ${root}: not followed`, 'pass the target as its own PATH if you mean to check it'));
      return;
    }
    if (seen.has(real)) {
      const prev = readAt.get(real);
      if (!root && prev) { delete prev.from; again = true; }
      return;
    }
    seen.add(real);
    let st;
    try { st = statSync(real); } catch (e) { out.push(problem(shown, 'unreadable', `cannot read (${e.code || e.message})`, 'check the path and its permissions')); return; }
    if (!st.isFile()) { out.push(problem(shown, 'not-a-file', 'not a regular file (device, socket or FIFO): not read', 'pass regular files only')); return; }
    if (st.size > limits.fileBytes) { out.push(problem(shown, 'too-large', `${st.size} bytes, over the ${limits.fileBytes}-byte limit for one config file`, 'pass the config file itself, not a dump or log')); return; }
    if (total + st.size > limits.totalBytes) { out.push(problem(shown, 'too-much-input', `over ${limits.totalBytes} bytes read in all; the rest were not read`, 'pass fewer or smaller files')); stopped = true; return; }
    let bytes;
    try { bytes = readFileSync(real); } catch (e) { out.push(problem(shown, 'unreadable', `cannot read (${e.code || e.message})`, 'check its permissions')); return; }
    total += bytes.length;
    if (looksBinary(bytes)) { out.push(problem(shown, 'binary', 'binary file (NUL bytes): skipped', 'pass text config files only')); return; }
    const { text, notes } = decodeText(bytes);
    out.push({ path: shown, text, ...(notes.length ? { notes } : {}) });
    readAt.set(real, out[out.length - 1]);
  };
  const walk = (dir, root, base, depth) => {
    if (stopped) return;
    if (depth > limits.depth) { out.push(problem(relative(base, dir) || dir, 'too-deep', `folders nested deeper than ${limits.depth} levels were not read`, 'pass a folder closer to the config files')); return; }
    let names;
    try { names = readdirSync(dir).sort(); } catch (e) { out.push(problem(dir, 'unreadable', `cannot list (${e.code || e.message})`, 'check its permissions')); return; }
    for (const n of names) {
      if (n === '.git' || n === 'node_modules') continue;
      const abs = join(dir, n);
      const shown = display(abs);
      let l;
      try { l = lstatSync(abs); } catch { continue; }
      if (l.isSymbolicLink()) {
        let real;
        try { real = realpathSync(abs); } catch (e) { out.push(e.code === 'ELOOP' ? linkProblem(shown, e) : problem(shown, 'unreadable', 'broken symbolic link', 'fix or remove the link')); continue; }
        if (real !== root && !real.startsWith(root + sep)) { out.push(problem(shown, 'symlink-outside', `symbolic link to ${real}, outside ${root}: not followed`, 'pass the target as its own PATH if you mean to check it')); continue; }
        if (statSync(real).isDirectory()) continue; // a link to a folder inside PATH: that folder is walked anyway
      }
      if (l.isDirectory()) walk(abs, root, base, depth + 1);
      else add(abs, shown, root);
    }
  };
  for (const p of paths) {
    const before = out.length;
    again = false;
    collectPath(p);
    // A PATH that gave nothing to read (an empty folder, a folder with no config the doctor knows, a file no reader
    // knows) is an input problem, not "No findings": exit 2 whatever --fail-on says.
    if (!stopped && !again && !out.slice(before).some((x) => x.problem || classify(x.path, x.text))) {
      const file = out.slice(before).some((x) => x.path === p);
      out.push(problem(p, 'nothing-to-check', file ? `not a file the doctor reads (not a Rails, Puma, database, nginx, systemd… config)` : `no file the doctor reads was found in ${p}`, 'pass the app root (with Gemfile, config/puma.rb, config/database.yml…) or the config files themselves'));
    }
  }
  // Files of a folder walk that no reader knows are left out quietly (a config folder holds many).
  return out.filter((x) => x.problem || x.kind || classify(x.path, x.text) || paths.includes(x.path));

  function collectPath(p) {
    const abs = resolve(p);
    let st;
    try { st = statSync(abs); } catch (e) { out.push(problem(p, 'unreadable', `cannot read (${e.code || e.message})`, 'check the path')); return; }
    if (!st.isDirectory()) { add(abs, display(abs, p), null); return; }
    const root = realpathSync(abs);
    const isApp = ['Gemfile', 'config/application.rb'].some((f) => { try { return statSync(join(root, f)).isFile(); } catch { return false; } });
    if (isApp) {
      // Environment files kept in config/ (ruby.env, jobs.env) are read too: the app server may load them.
      let envs = [];
      try { envs = readdirSync(join(abs, 'config')).filter((n) => n.endsWith('.env')).sort().map((n) => `config/${n}`); } catch { /* no config/ */ }
      const start = out.length;
      for (const f of [...APP_FILES, ...envs]) { try { lstatSync(join(abs, f)); } catch { continue; } add(join(abs, f), display(join(abs, f)), root); }
      for (const f of rakeFiles(abs, limits.rakeFiles ?? LIMITS.rakeFiles)) add(join(abs, f), display(join(abs, f)), root);
      // The Puma config the web command names (`puma -C config/puma.default.rb` in the Procfile, the Dockerfile's
      // CMD, Kamal's cmd) is the one Puma reads: read it as config/puma.rb would be.
      const deploy = out.slice(start).filter((x) => !x.problem && ['procfile', 'dockerfile', 'kamal', 'compose'].includes(classify(x.path, x.text))).map((x) => readFile(x));
      for (const { path: f } of serverConfigPaths(resolveCompose(deploy))) {
        if (classify(f) !== 'puma') continue;
        try { lstatSync(join(abs, f)); } catch { continue; }
        add(join(abs, f), display(join(abs, f)), root);
      }
      // `sidekiq -C config/workers/default.yml` in the Procfile: that file is Sidekiq's config, whatever its name.
      for (const f of deploy.filter((x) => x.kind === 'procfile').flatMap((x) => sidekiqLines([x]).map((l) => sidekiqConfigOf(l.s.value))).filter(Boolean)) {
        try { lstatSync(join(abs, f)); } catch { continue; }
        const n = out.length;
        add(join(abs, f), display(join(abs, f)), root);
        if (out.length > n && !out[n].problem) out[n].kind = 'sidekiq-yml';
      }
      // Files read as another kind than their name says: the Gemfile's evaluated parts (gemfile-parts.mjs), and the
      // file the production image copies over config/database.yml (its header may say it is a local setup).
      const extra = (f, kind) => {
        try { if (!lstatSync(join(abs, f)).isFile()) return; } catch { return; }
        const n = out.length;
        add(join(abs, f), display(join(abs, f)), root);
        if (out.length > n && !out[n].problem) out[n].kind = kind;
      };
      const gemfile = out.slice(start).find((x) => !x.problem && classify(x.path, x.text) === 'gemfile');
      const list = (dir) => { try { return readdirSync(join(abs, dir)); } catch { return []; } };
      if (gemfile) for (const f of partFiles(partPatterns(gemfile.text), list)) extra(f, 'gemfile-part');
      // Units the app ships for its hosts, and the shell scripts its start commands run (app-extras.mjs).
      for (const f of appUnitPaths(list, limits.appUnits ?? LIMITS.appUnits)) {
        const n = out.length;
        extra(f, 'systemd');
        if (out.length > n && !out[n].problem) out[n].from = 'app-unit';
      }
      for (const f of startScriptPaths(deploy, limits.startScripts ?? LIMITS.startScripts)) extra(f, 'start-script');
      // Active Job's adapter outside production.rb and application.rb (active-job.mjs): every config/initializers/*.rb
      // is scanned for `queue_adapter`, and only those naming it are read; then, and only when that scan was
      // complete, a few app/jobs classes (they tell that the app has jobs, for the implicit :async default).
      const rb = (dir) => list(dir).filter((n) => n.endsWith('.rb')).sort();
      const inits = rb('config/initializers');
      if (inits.length <= (limits.initializers ?? LIMITS.initializers)) {
        let complete = true;
        for (const n of inits) {
          const f = `config/initializers/${n}`;
          if (f === 'config/initializers/good_job.rb') continue;
          let text;
          try { const l = lstatSync(join(abs, f)); if (!l.isFile() || l.size > limits.fileBytes) { complete = false; continue; } text = readFileSync(join(abs, f), 'latin1'); } catch { complete = false; continue; }
          if (/queue_adapter/.test(text)) extra(f, 'initializer');
        }
        const jobs = rb('app/jobs');
        const picked = [...jobs.filter((n) => n === 'application_job.rb'), ...jobs.filter((n) => n !== 'application_job.rb')].slice(0, limits.jobClasses ?? LIMITS.jobClasses);
        if (complete) for (const n of picked) extra(`app/jobs/${n}`, 'job-class');
      }
      for (const d of deploy.filter((x) => x.kind === 'dockerfile' && x.path.split('/').pop() === 'Dockerfile')) {
        for (const c of d.copies || []) {
          const src = c.src.replace(/^(\.\/)+/, '');
          if (/(^|\/)config\/database\.yml$/.test(c.dest) && src !== 'config/database.yml' && !src.startsWith('/') && !src.split('/').includes('..') && !/[$*?[]/.test(src)) extra(src, 'image-config');
        }
      }
    } else {
      walk(abs, root, abs, 0);
    }
  }
}
