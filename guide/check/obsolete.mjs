// Settings the detected version no longer reads or has removed. Puma's DSL names and Ruby's GC
// variables come from the engine's capability tables; the PostgreSQL and nginx rows are here, each
// with the release that removed or deprecated the setting.
import { PUMA_DSL } from '../engine/capabilities/puma.mjs';
import { GC_ERAS } from '../engine/capabilities/ruby.mjs';
import { namesAt } from '../engine/pick.mjs';
import { gte, inRange } from '../engine/version.mjs';
import { versionOf } from './assumed.mjs';
import { cleanVersion } from './detect.mjs';

const pgNotes = (v) => ({ label: `PostgreSQL ${v} release notes`, url: `https://www.postgresql.org/docs/release/${v}.0/` });
const NGINX_CHANGES = { label: 'nginx changes', url: 'https://nginx.org/en/CHANGES' };
const PUMA_HISTORY = { label: 'Puma History.md', url: 'https://github.com/puma/puma/blob/master/History.md' };
const RUBY_GC = { label: 'ruby/ruby gc/default/default.c (GC environment variables)', url: 'https://github.com/ruby/ruby/blob/master/gc/default/default.c' };

// PostgreSQL refuses to start with a parameter it does not know, so a removed one is an error.
export const PG_REMOVED = [
  { name: 'min_parallel_relation_size', until: '10', replacement: 'min_parallel_table_scan_size' },
  { name: 'sql_inheritance', until: '10' },
  { name: 'replacement_sort_tuples', until: '11' },
  { name: 'checkpoint_segments', until: '9.5', replacement: 'max_wal_size' },
  { name: 'wal_keep_segments', until: '13', replacement: 'wal_keep_size' },
  { name: 'operator_precedence_warning', until: '14' },
  { name: 'stats_temp_directory', until: '15' },
  { name: 'vacuum_defer_cleanup_age', until: '16' },
  { name: 'promote_trigger_file', until: '16' },
  { name: 'force_parallel_mode', until: '16', replacement: 'debug_parallel_query' },
  { name: 'old_snapshot_threshold', until: '17' },
  { name: 'db_user_namespace', until: '17' },
];

const branchOf = (s) => (s.branch?.length ? ` (in ${s.branch.map((b) => `\`${b.cond}\` (line ${b.line})`).join(' › ')})` : '');

// Puma settings removed before the versions the engine knows about.
const PUMA_REMOVED = { daemonize: { until: '5.0' } };

/** → [{rule, severity, file, line, setting, message, evidence, replacement?}] for one read file. */
export function obsoleteFindings(file, answers) {
  const out = [];
  let dependsOn = null;
  let dev = false;
  const add = (s, severity, message, evidence, replacement) => out.push({ rule: 'obsolete', severity: dev ? 'note' : severity, file: file.path, line: s.line, setting: s.name, found: s.value, message, evidence, replacement, dependsOn });
  if (file.kind === 'puma') {
    // The Puma Gemfile.lock locks is the one this file runs on, in whatever group (a puma.rb for `rails server` in
    // development, gem "puma" in group :development): its version, not the wizard's default; a development/test-only
    // Puma is not production's, so what it finds is a note (assumed.mjs lockedGem).
    // (A production Puma detected from Gemfile.lock is already the answer: its messages stay as they were.)
    const lp = answers.__lockedPuma;
    const locked = lp && (lp.devOnly || !(answers.server === 'puma' && answers.__provenance?.server_version)) ? lp : null;
    dependsOn = locked ? null : 'server_version';
    const v = locked ? cleanVersion(locked.value) : answers.server === 'puma' ? answers.server_version : null;
    // Without Gemfile.lock the version is assumed (assumed.mjs) and the message says from what. A Gemfile lower bound
    // proves "removed in X" (every allowed version is at least the bound) but not "does not exist before X".
    const pv = locked ? { value: v, assumed: false, text: `Puma ${locked.value} (${locked.file}:${locked.line}${locked.devOnly ? `; only in the Gemfile's ${locked.groups.join('/')} group${locked.groups.length > 1 ? 's' : ''}${locked.at ? ` (${locked.at.file}:${locked.at.line})` : ''}, so production's bundle has no Puma and this file serves development` : ''})` } : v ? versionOf(answers, 'server_version', 'Puma') : null;
    dev = Boolean(locked?.devOnly);
    // No file names Puma's version and the Gemfile evaluates files that were not read (a pin may be there): the
    // version is unknown, not the wizard's default; a renamed or removed name is a note that says both sides
    // (fifth blind trial, foreman: `before_worker_boot` suggested to an app pinned below Puma 7).
    const unknown = !locked && answers.__gemfileUnfollowed && !answers.__provenance?.server_version && answers.server === 'puma';
    for (const s of file.settings) {
      const cap = PUMA_DSL[s.name] || PUMA_REMOVED[s.name];
      if (cap && unknown) {
        const u = answers.__gemfileUnfollowed;
        const what = cap.deprecatedSince ? `is deprecated since Puma ${cap.deprecatedSince}${cap.until ? ` and removed in ${cap.until}` : ''}${cap.replacement ? ` (${cap.replacement} there; it does not exist in earlier releases)` : ''}`
          : cap.until ? `was removed in Puma ${cap.until}${cap.replacement ? ` (use ${cap.replacement} there)` : ''}` : cap.since ? `does not exist before Puma ${cap.since}` : null;
        if (what) add(s, 'note', `${s.name}${branchOf(s)} ${what}; Puma's version is unknown: no Gemfile.lock is read and ${u.file}:${u.line} evaluates files that were not read, where Puma may be pinned. Check the version the app locks before changing this line`, [PUMA_HISTORY]);
        continue;
      }
      if (!cap || !v) continue;
      // A value the version no longer knows (rackup DefaultRackup on Puma ≥ 6): the line raises at boot.
      const arg = (cap.removedArgs || []).find((a) => s.args?.[0]?.text === a.value && gte(v, a.until));
      // `rackup DefaultRackup if defined?(DefaultRackup)`: the guard is false where the constant is gone, so the line
      // never runs there; it is dead code, not a boot failure.
      if (arg && (s.branch || []).some((b) => new RegExp(`^(if\\s+)?defined\\?\\(?\\s*(::)?${arg.value}\\b`).test(b.cond))) add(s, 'note', `${s.name} ${arg.value}${branchOf(s)}: ${arg.value} was removed in Puma ${arg.until}, so on ${pv.text} the guard is false and the line never runs: it can be deleted`, [{ label: `Puma: ${arg.value} removed in ${arg.until}`, url: arg.url }]);
      else if (arg) add(s, 'error', `${s.name} ${arg.value}${branchOf(s)}: ${arg.value} was removed in Puma ${arg.until}; ${pv.text} stops at boot with NameError (uninitialized constant ${arg.value}): ${arg.fix}`, [{ label: `Puma: ${arg.value} removed in ${arg.until}`, url: arg.url }, PUMA_HISTORY]);
      else if (cap.until && gte(v, cap.until)) add(s, 'error', `${s.name} was removed in Puma ${cap.until}; ${pv.text} stops with NoMethodError${cap.replacement ? `: use ${cap.replacement}` : ''}`, [PUMA_HISTORY], cap.replacement);
      else if (cap.since && !gte(v, cap.since)) add(s, pv.assumed ? 'note' : 'error', `${s.name} does not exist before Puma ${cap.since} (${pv.assumed || locked ? pv.text : `detected ${v}`})`, [PUMA_HISTORY]);
      // A deprecated name still runs (Puma prints a warning at boot): a note, not harm (README "Severity").
      else if (cap.deprecatedSince && gte(v, cap.deprecatedSince)) add(s, 'note', `${s.name} is deprecated since Puma ${cap.deprecatedSince}${branchOf(s)}; ${pv.text} still runs it and warns at boot${cap.until ? ` that it goes in Puma ${cap.until.replace(/\.0$/, '')}` : ''}${cap.replacement ? `: use ${cap.replacement}` : ''}`, [PUMA_HISTORY], cap.replacement);
    }
  }
  if (file.kind === 'pgconf' && answers.database === 'postgresql') {
    dependsOn = 'database_version';
    for (const s of file.settings) {
      const r = PG_REMOVED.find((x) => x.name === s.name);
      if (r && gte(answers.database_version, r.until)) add(s, 'error', `${s.name} was removed in PostgreSQL ${r.until}; ${versionOf(answers, 'database_version', 'PostgreSQL').text} refuses to start with it${r.replacement ? ` (use ${r.replacement})` : ''}`, [pgNotes(r.until)], r.replacement);
    }
  }
  if (file.kind === 'nginx') {
    dependsOn = 'proxy_version';
    for (const s of file.settings) {
      if (s.name === 'ssl' && /^on$/i.test(s.value)) {
        // The replacement is the server's own listen line with ssl added (nearest listen in the same context).
        const own = file.settings.filter((x) => x.name === 'listen' && x.ctx === s.ctx && !/\bssl\b/.test(x.value)).sort((a, b) => Math.abs(a.line - s.line) - Math.abs(b.line - s.line))[0];
        const repl = own ? `listen ${own.value} ssl` : null;
        add(s, gte(answers.proxy_version, '1.25.1') ? 'error' : 'warning', `"ssl on" is deprecated since nginx 1.15.0 and removed in 1.25.1: ${own ? `remove it and write line ${own.line} as "${repl}"` : 'add ssl to the server\'s listen line'}`, [NGINX_CHANGES], repl);
      }
      if (s.name === 'listen' && s.args?.includes('http2') && gte(answers.proxy_version, '1.25.1')) add(s, 'warning', 'the http2 parameter of listen is deprecated since nginx 1.25.1: use "http2 on;"', [NGINX_CHANGES], 'http2 on');
    }
  }
  if ((file.kind === 'env' || file.kind === 'systemd') && answers.ruby_version) {
    dependsOn = 'ruby_version';
    const era = GC_ERAS.find((e) => e.impl === (answers.ruby === 'ree' ? 'ree' : 'cruby') && inRange(answers.ruby_version, e));
    if (era && (answers.ruby === 'cruby' || answers.ruby === 'ree')) {
      const reads = new Set(namesAt(era.reads, answers.ruby_version));
      for (const s of envSettings(file)) {
        if (/^RUBY_(GC_|HEAP_|FREE_MIN)/.test(s.name) && !reads.has(s.name)) add(s, 'warning', `Ruby ${answers.ruby_version} does not read ${s.name}: the setting has no effect`, [RUBY_GC]);
      }
    }
  }
  return out;
}

/** Variables set by an environment file or by Environment= lines of a systemd unit. */
export function envSettings(file) {
  if (file.kind === 'env') return file.settings;
  // Dockerfile ENV lines; Kamal's env: clear: (the container's environment).
  if (file.kind === 'dockerfile') return file.settings.filter((s) => s.op === 'ENV' && s.runtime !== false && s.value !== null).map((s) => ({ name: s.name, value: String(s.value), line: s.line }));
  // Compose: the environment of the production services that run the app (composeWeb), as the container gets it.
  if (file.kind === 'compose') return composeWeb(file).flatMap((svc) => [...svc.env].filter(([, v]) => v.value !== null).map(([name, v]) => ({ name, value: String(v.value), line: v.line })));
  if (file.kind === 'kamal') return file.settings.filter((s) => s.path?.[0] === 'env' && s.path[1] === 'clear' && s.path.length === 3 && s.known && s.value !== null).map((s) => ({ name: s.key, value: String(s.value), line: s.line }));
  if (file.kind !== 'systemd') return [];
  const out = [];
  for (const s of file.settings) {
    if (s.name !== 'Environment') continue;
    for (const m of String(s.value).matchAll(/"?([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)"?/g)) out.push({ name: m[1], value: m[2].replace(/^"|"$/g, ''), line: s.line });
  }
  return out;
}

const WEB_CMD = /\b(puma|unicorn|pitchfork|passenger|falcon|thrust|rails\s+(s|server)|rackup|foreman\s+(start|run)\s+web)\b/;
/** A Compose file's production services that run the app server: by command, else named web/app/rails. */
export function composeWeb(file) {
  const prod = (file.services || []).filter((s) => s.production === true);
  const byCmd = prod.filter((s) => s.command && WEB_CMD.test(s.command.value));
  return byCmd.length ? byCmd : prod.filter((s) => !s.command && /^(web|app|rails|puma|server)$/i.test(s.name));
}
