// The Ruby the production image runs against the Ruby the app declares: the official image's tag in the final stage
// of a file named Dockerfile (`FROM ruby:3.3`, or `ARG RUBY_VERSION=3.4.5` + `FROM …ruby:$RUBY_VERSION-slim` as
// Rails' generated Dockerfile writes it, "Make sure RUBY_VERSION matches the Ruby version in .ruby-version") against
// .ruby-version, .tool-versions, Gemfile.lock's RUBY VERSION and the Gemfile's `ruby` requirement. Severity as in
// problems.mjs: the Gemfile's requirement excludes every Ruby the tag can be (Bundler refuses to install or load the
// bundle in the image) an error; another minor version a warning (production runs another Ruby than development and
// CI); another patch release of the same minor a note. A tag without a patch (`ruby:3.3`) floats to the newest 3.3.x
// and differs from a 3.3.x file only by when the image is built: nothing is said then.
import { RUBY_IMAGE } from '../engine/capabilities/ruby.mjs';
import { satisfies } from './read-gems.mjs';
import { DEV_STAGE } from './deploy.mjs';

const DOCKER_RUBY = { label: 'Docker Official Image ruby: tags (3.4.8-slim is that release, 3.4 the newest 3.4.x)', url: 'https://hub.docker.com/_/ruby' };
const RAILS_DOCKERFILE = { label: 'Rails generated Dockerfile: "Make sure RUBY_VERSION matches the Ruby version in .ruby-version"', url: 'https://github.com/rails/rails/blob/main/railties/lib/rails/generators/rails/app/templates/Dockerfile.tt' };
const BUNDLER_RUBY = { label: 'Bundler guide: Specifying a Ruby Version (Bundler raises when the running Ruby does not match the Gemfile)', url: 'https://bundler.io/guides/gemfile_ruby.html' };
const RUBY_BRANCHES = { label: 'ruby-lang.org: Ruby maintenance branches (each minor version is its own series)', url: 'https://www.ruby-lang.org/en/downloads/branches/' };

const base = (p) => String(p).split('/').pop();
const minor = (v) => v.split('.').slice(0, 2).join('.');

/** The official Ruby image the final stage is built from: {version, line, from, text} or null. */
export function imageRuby(f) {
  const live = f.settings.filter((s) => s.op === 'FROM' && s.runtime);
  if (!live.length) return null;
  const first = f.settings.find((s) => s.op === 'FROM');
  // ARGs declared before the first FROM are the ones a FROM line can use (Docker: "Understand how ARG and FROM interact").
  const args = new Map(f.settings.filter((s) => s.op === 'ARG' && s.line < first.line && s.value !== null).map((s) => [s.name, s]));
  for (const s of live) {
    let arg = null;
    const ref = /^(?:--\S+\s+)*(\S+)/.exec(String(s.value))?.[1] || '';
    const image = ref.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}?/g, (m, name, dflt) => {
      if (args.has(name)) { arg = args.get(name); return arg.value; }
      return dflt ?? m;
    }).replace(/@sha256:[0-9a-f]+$/i, '');
    const at = image.lastIndexOf(':');
    if (at < 0 || image.lastIndexOf('/') > at || !RUBY_IMAGE.test(image.slice(0, at).toLowerCase())) continue;
    const m = /^(\d+\.\d+(?:\.\d+)?)(?:-[\w.-]+)?$/.exec(image.slice(at + 1));
    if (!m) return null;
    return { version: m[1], line: (arg || s).line, from: s.line, text: arg ? `ARG ${arg.name}=${arg.value}, FROM ${s.value}` : `FROM ${s.value}` };
  }
  return null;
}

/** Can no Ruby the tag names meet the requirement? (a `3.3` tag is any 3.3.x: the versions the requirement names count) */
function refuses(version, req) {
  const parts = version.split('.');
  if (parts.length >= 3) return satisfies(version, req) === false;
  const named = [...String(req).matchAll(/\d+(?:\.\d+)*/g)].map((x) => x[0]).filter((v) => minor(v) === version);
  const tries = [`${version}.0`, `${version}.999`, ...named];
  const r = tries.map((v) => satisfies(v, req));
  return r.every((x) => x === false);
}

export function rubyImageFindings(files) {
  const out = [];
  const ok = files.filter((f) => !f.problem);
  // What the version managers pick (.ruby-version, .tool-versions); Gemfile.lock's RUBY VERSION only when neither is read
  // (it records the Ruby the bundle was resolved with; against .ruby-version problems.mjs judges it).
  const of = (kinds) => ok.filter((x) => kinds.includes(x.kind) && x.ruby && x.ruby.impl === 'ruby')
    .map((f) => ({ file: f.path, line: f.ruby.line, version: f.ruby.value, what: f.kind === 'gemfile-lock' ? "Gemfile.lock's RUBY VERSION" : base(f.path) }));
  const managers = of(['ruby-version', 'tool-versions']);
  const gemfile = ok.find((x) => x.kind === 'gemfile' && x.ruby?.requirement);
  // A RUBY VERSION the Gemfile's own `ruby` line rejects is stale: Bundler refuses to load the bundle on that Ruby, so
  // development and CI run one the Gemfile allows, and the next `bundle install` there rewrites the line.
  const declared = managers.length ? managers : of(['gemfile-lock']).filter((d) => !gemfile || satisfies(d.version, gemfile.ruby.requirement) !== false);
  for (const f of ok.filter((x) => x.kind === 'dockerfile' && base(x.path) === 'Dockerfile' && !DEV_STAGE.test(String(x.finalStage || '').toLowerCase()))) {
    const img = imageRuby(f);
    if (!img) continue;
    const req = gemfile && refuses(img.version, gemfile.ruby.requirement) ? gemfile.ruby : null;
    const other = declared.filter((d) => minor(d.version) !== minor(img.version));
    const patch = declared.filter((d) => minor(d.version) === minor(img.version) && img.version.split('.').length >= 3 && d.version.split('.').length >= 3 && d.version !== img.version);
    if (!req && !other.length && !patch.length) continue;
    const severity = req ? 'error' : other.length ? 'warning' : 'note';
    const says = [...(req ? [{ file: gemfile.path, line: req.line, text: `${gemfile.path}:${req.line} requires ruby "${req.requirement}"` }] : []),
      ...(other.length ? other : patch).map((d) => ({ file: d.file, line: d.line, text: `${d.what} says ${d.version} (${d.file}:${d.line})` }))];
    const floating = img.version.split('.').length < 3 ? `, the newest ${img.version}.x when the image is built` : '';
    const harm = req
      ? `Bundler refuses to install or load the bundle on it ("Your Ruby version is ${img.version}…, but your Gemfile specified ${req.requirement}"): the image build or the app's start fails`
      : other.length
        ? `production runs another minor version of Ruby than development and CI, with its own language changes, standard library and default gems (each minor is its own series), and the gems were resolved and tested on the other one`
        : 'production runs another patch release than development and CI (fixes and security releases differ)';
    out.push({
      rule: 'ruby-mismatch', severity, file: f.path, line: img.line, setting: 'ruby', found: img.version, expected: req ? req.requirement : (other[0] || patch[0]).version,
      message: `the production image runs Ruby ${img.version} (\`${img.text}\`${floating}), but ${says.map((x) => x.text).join(' and ')}: ${harm}. Build the image from the Ruby the app declares (${req ? `ruby "${req.requirement}"` : (other[0] || patch[0]).version}), or update the files that declare it`,
      evidence: [DOCKER_RUBY, RAILS_DOCKERFILE, ...(req ? [BUNDLER_RUBY] : [RUBY_BRANCHES])], related: says.map((x) => ({ file: x.file, line: x.line })),
    });
  }
  return out;
}
