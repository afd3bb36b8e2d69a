// One entry point for every reader: {path, text} → a read file with uniform settings
// [{name, value, text, line, ctx?, args?, env?, conditional?}] plus what the reader could not read.
import { classify } from './classify.mjs';
import { readRuby } from './read-ruby.mjs';
import { readYaml } from './read-yaml.mjs';
import { readNginx } from './read-nginx.mjs';
import { readApache, readCaddy } from './read-apache.mjs';
import { readPgConf, readIni, readSysctl, readEnv } from './read-flat.mjs';
import { readGemfileLock, readGemfile, readRubyVersion, readToolVersions } from './read-gems.mjs';
import { readProcfile, readDockerfile, readCompose, readRake } from './read-deploy.mjs';
import { inputProblem } from './errors.mjs';
import { readAdapterLines } from './active-job.mjs';
import { readStartScript } from './app-extras.mjs';

const RUBY_KINDS = new Set(['puma', 'unicorn', 'pitchfork', 'rails-env', 'good-job', 'rails-app']);
const LAST_WINS = ['threads', 'workers'];

/** Text of a resolved Ruby value, for comparison: the value when known, else the source text. */
export function valueText(v) {
  if (!v) return '';
  if (v.known) return v.value === null ? (v.env ? `ENV[${v.env}]` : 'nil') : String(v.value);
  return v.text;
}

function rubySettings(src) {
  const r = readRuby(src);
  const settings = [];
  for (const c of r.calls) {
    // Top-level DSL calls only: not calls inside hooks, methods or other blocks (Rails' configure block aside).
    if (c.inDef || (c.inBlock && c.inBlock !== 'Rails')) continue;
    settings.push({ name: c.name, args: c.args, value: c.args.map(valueText).join(', '), text: c.text, line: c.line, conditional: c.conditional, branch: c.branch, block: c.block, env: c.args.find((a) => a.env)?.env });
  }
  // Puma's DSL stores `threads` and `workers` in one option each: a later unconditional call replaces every
  // earlier one (Puma::DSL sets @options[:min_threads]/[:max_threads], [:workers]), so only it is in effect.
  for (const name of LAST_WINS) {
    const last = settings.findLastIndex((s) => s.name === name && !s.conditional);
    if (last > 0) for (let k = last - 1; k >= 0; k--) if (settings[k].name === name) settings.splice(k, 1);
  }
  for (const a of r.attrs) if (!a.inDef) settings.push({ name: a.name, args: [a.value], value: valueText(a.value), text: a.value.text, line: a.line, conditional: a.conditional, branch: a.branch });
  // Top-level `require` lines (puma.rb that loads config/environment boots the app in the master).
  const requires = r.calls.filter((c) => !c.inDef && !c.inBlock && /^require(_relative)?$/.test(c.name)).map((c) => ({ line: c.line, text: c.text, branch: c.branch }));
  return { settings, assigns: r.assigns, notes: r.notes, requires };
}

// config/application.rb: the `config.…` calls and assignments of the Application class (a class body, which the
// Ruby reader counts as a definition, so rubySettings would skip them): config.load_defaults and the like.
function railsAppSettings(src) {
  const r = readRuby(src);
  const settings = [];
  for (const c of r.calls) if (c.receiver === 'config') settings.push({ name: `config.${c.name}`, args: c.args, value: c.args.map(valueText).join(', '), text: c.text, line: c.line, branch: c.branch });
  for (const a of r.attrs) if (a.name.startsWith('config.')) settings.push({ name: a.name, args: [a.value], value: valueText(a.value), text: a.value.text, line: a.line, branch: a.branch });
  return { settings, notes: r.notes };
}

// Sidekiq reads `:concurrency:` and `concurrency:` alike (it symbolizes the keys): one name for both.
function symbolKeys(r) {
  const strip = (k) => String(k).replace(/^:/, '');
  for (const s of r.settings) {
    s.key = strip(s.key);
    if (s.path) s.path = s.path.map(strip);
    if (s.name) s.name = s.path ? s.path.join('.') : strip(s.name);
  }
  return r;
}

// Sidekiq merges the section named for its environment over the top level (cli.rb parse_config:
// opts.merge(opts.delete(environment))): production's keys are read as top-level ones, replacing them;
// other environments' sections are not production's settings and stay under their own path.
function sidekiqProduction(r) {
  const prod = r.settings.filter((s) => s.path?.[0] === 'production' && s.path.length > 1);
  if (!prod.length) return r;
  const names = new Set(prod.map((s) => s.path.slice(1).join('.')));
  const top = (s) => s.path && s.path[0] !== 'production' && !names.has(s.path.join('.')) && !names.has(s.path[0]);
  const moved = prod.map((s) => ({ ...s, path: s.path.slice(1), name: s.path.slice(1).join('.') }));
  r.settings = [...r.settings.filter((s) => !s.path || top(s)), ...moved];
  return r;
}

const READERS = {
  puma: rubySettings, unicorn: rubySettings, pitchfork: rubySettings, 'rails-env': rubySettings, 'good-job': rubySettings, 'rails-app': railsAppSettings,
  'database-yml': (src, path) => readYaml(src, path),
  'sidekiq-yml': (src, path) => sidekiqProduction(symbolKeys(readYaml(src, path))),
  'queue-yml': (src, path) => readYaml(src, path),
  kamal: (src, path) => readYaml(src, path),
  procfile: readProcfile,
  dockerfile: readDockerfile,
  compose: (src, path) => readCompose(src, path),
  rake: readRake,
  // config/initializers/*.rb that name queue_adapter, and app/jobs classes: that one line only (active-job.mjs).
  initializer: readAdapterLines,
  'job-class': readAdapterLines,
  // bin/jobs: kept as text (deploy.mjs asks whether it loads Solid Queue); nothing in it is run or parsed.
  binstub: () => ({ settings: [], notes: [] }),
  // A shell script a start command runs: its Puma command lines only (app-extras.mjs); never run.
  'start-script': (src, path) => readStartScript(src, path),
  nginx: (src, path) => readNginx(src, path),
  apache: (src, path) => readApache(src, path),
  caddy: (src, path) => readCaddy(src, path),
  pgconf: readPgConf,
  pgbouncer: (src) => readIni(src),
  mycnf: (src) => readIni(src),
  systemd: (src) => readIni(src, { caseSensitive: true }),
  sysctl: readSysctl,
  env: readEnv,
  gemfile: readGemfile,
  'gemfile-part': readGemfile,
  // A file the image copies over config/database.yml: kept as text (deploy.mjs reads its header comment).
  'image-config': () => ({ settings: [], notes: [] }),
  'gemfile-lock': readGemfileLock,
  'ruby-version': readRubyVersion,
  'tool-versions': readToolVersions,
};

/**
 * readFile({path, text, kind?, notes?}) → {path, kind, settings, notes, problem?}; kind null = no reader (skipped).
 * `notes` given (how the text was decoded) come first in the file's notes.
 * Reader exceptions become a `problem` (named, with file and line) instead of propagating.
 */
export function readFile({ path, text, kind, notes: given = [] }) {
  const k = kind || classify(path, text);
  if (!k || !READERS[k]) return { path, kind: null, settings: [], notes: given };
  try {
    const r = READERS[k](text, path);
    if (RUBY_KINDS.has(k)) for (const s of r.settings) s.value = String(s.value);
    return { path, kind: k, text, ...r, notes: [...given, ...(r.notes || [])] };
  } catch (e) {
    const problem = inputProblem(e, path);
    // A rake file is read only for the task names a Procfile may run: one the reader cannot follow (a regex
    // literal that looks like a heredoc or a string, trial 5) leaves its tasks unknown (dynamic: no task is then
    // reported missing) with a note, instead of making the whole check unreadable.
    if (k === 'rake' && problem.code !== 'too-deep') {
      return { path, kind: k, settings: [], dynamic: true, notes: [...given, { line: problem.line || 0, message: `not read (${problem.message}); the tasks it defines are unknown, so none is reported missing` }] };
    }
    return { path, kind: k, settings: [], notes: given, problem };
  }
}

export { RUBY_KINDS };
