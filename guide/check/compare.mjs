// Setting-by-setting comparison of the user's files with the bundle the engine generates for the same
// answers. The engine's structured settings (name, value, why, evidence) say WHAT to compare and WHY;
// both sides' values are resolved by the same static readers, so "equal" means equal after ENV defaults,
// quotes, units and whitespace. New settings in the engine are compared without changes here.
import { readFile, RUBY_KINDS } from './read.mjs';
import { classify } from './classify.mjs';
import { sameValue } from './normalize.mjs';
import { effective, envOf } from './crossfile.mjs';
import { replaceLine, insertAfter } from './diff.mjs';
import { absentIsFine } from './absent.mjs';
import { ownLocals, ownNginxNames } from './own-names.mjs';
import { wizardChoice } from './choice.mjs';
import { UNIT_ROLES } from '../engine/capabilities/process.mjs';
import { appEnvReads } from './env-reads.mjs';
import { envMissing, DEPLOY_SET } from './env-missing.mjs';

// Setting names that mean the same thing (Rails 8.1 reads max_connections; pool is still read).
const ALIASES = { max_connections: ['pool'], pool: ['max_connections'] };

// Names the reader chooses (upstream and server names, database names, users): only their presence is
// compared. Paths and addresses likewise: they differ between any two hosts; the cross-file checks
// compare the ones that must agree (socket paths, pool and threads).
const NAMING = new Set(['upstream', 'server_name', 'database', 'username', 'password', 'host', 'user', 'User', 'Group', 'auth_file', 'dbname', 'tag']);
export function presenceOnly(g) {
  const v = String(g.value ?? '');
  return NAMING.has(g.key) || /(^|[\s"'=,:])\/[\w.-]+\/|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/.test(v);
}

/**
 * nginx: a main file (top-level http/events) or a site file (server/upstream blocks). systemd: 'web' or 'jobs' by
 * what ExecStart runs (capabilities/process.mjs UNIT_ROLES), 'any' when it says neither (a drop-in, a wrapper script).
 */
function roleOf(kind, settings) {
  if (kind === 'systemd') {
    const exec = settings.filter((s) => (s.key || s.name) === 'ExecStart').map((s) => String(s.value ?? '')).join(' ');
    return UNIT_ROLES.find((r) => r.exec.test(exec))?.role || 'any';
  }
  if (kind !== 'nginx') return 'any';
  return settings.some((s) => !s.ctx && (s.name === 'http' || s.name === 'events')) ? 'main' : 'site';
}

function fits(genRole, f) {
  if (genRole === 'any') return true;
  const role = roleOf(f.kind, f.settings);
  if (f.kind === 'systemd') return role === 'any' || role === genRole;
  if (genRole === 'main') return role === 'main';
  return role === 'site' || f.settings.some((s) => s.name === 'server' && s.block);
}

/** The settings of a generated file that it actually sets (not commented examples), with the engine's words. */
export function generatedSettings(gf) {
  const kind = classify(gf.path, gf.content);
  if (!kind || !gf.settings?.length) return { kind, settings: [] };
  const parsed = readFile({ path: gf.path, text: gf.content, kind });
  if (parsed.problem) throw new Error(`the doctor cannot read the engine's own ${gf.path}: ${parsed.problem.message}`);
  const used = new Set();
  const out = [];
  for (const s of parsed.settings) {
    const key = s.key || s.name;
    const meta = gf.settings.find((m, k) => !used.has(k) && m.name === key && sameValue(kind, key, m.value, s.text ?? s.value))
      ?? gf.settings.find((m, k) => !used.has(k) && m.name === key);
    if (!meta) continue;
    used.add(gf.settings.indexOf(meta));
    out.push({ ...s, key, why: meta.why, evidence: meta.evidence || [] });
  }
  return { kind, settings: out, parsed };
}

const first = (v) => String(v ?? '').split(/[\s,]+/)[0];
const scope = (s) => (s.path ? s.path[0] : '');

/** Value of a user setting after environment-file overrides (Ruby and YAML ENV defaults). */
function userValue(kind, s, env) {
  if (RUBY_KINDS.has(kind) && s.args) return s.args.map((a) => { const v = effective(a, env); return v === null ? a.text : String(v); }).join(', ');
  if (kind === 'database-yml' && s.env && env.has(s.env)) return String(effective(s, env));
  return s.value;
}

/**
 * compareFiles(userFiles, result, {sensitive}) → {findings, compared: [{kind, generated, files}], notCompared: [{kind, generated}]}
 * `sensitive(path, name)` → keys of undetected answers the generated value depends on (those findings are notes).
 */
export function compareFiles(userFiles, result, { sensitive = () => [], answers = {} } = {}) {
  const findings = [];
  const compared = [];
  const notCompared = [];
  const env = envOf(userFiles);
  let reads = null;
  for (const gf of result.files) {
    const { kind, settings, parsed } = generatedSettings(gf);
    if (!kind || !settings.length) continue;
    const genRole = roleOf(kind, parsed.settings);
    // The wizard's job-process env file (config/jobs.env) is the job runner's: compared with env files named for
    // jobs only, as the job environment is read (jobs.mjs jobEnvOf), never with the app's .env.production.
    const mine = userFiles.filter((f) => f.kind === kind && !f.problem && fits(genRole, f) && (kind !== 'env' || !JOB_ENV.test(baseName(gf.path)) || JOB_ENV.test(baseName(f.path))));
    if (!mine.length) {
      // A file of this kind was given but refused (its problem is reported): not "no such file given".
      const refused = userFiles.find((f) => f.kind === kind && f.problem);
      notCompared.push({ kind, generated: gf.path, ...(refused ? { refused: refused.path } : {}) });
      continue;
    }
    compared.push({ kind, generated: gf.path, files: mine.map((f) => f.path) });
    const all = mine.flatMap((f) => f.settings.map((s) => ({ f, s })));
    const sameName = (g) => all.filter(({ s }) => {
      const key = s.key || s.name;
      // Settings inside if/unless/case count: one branch runs, and the finding names it.
      return (key === g.key || (ALIASES[g.key] || []).includes(key)) && scope(s) === scope(g);
    });
    for (const g of settings) {
      // A jobs unit's ExecReload on a unit not known to run jobs (no runner's unit has one today: Sidekiq's TSTP only
      // quiets it, capabilities/jobs.mjs): a web server would get a job runner's signal.
      if (kind === 'systemd' && genRole === 'jobs' && g.key === 'ExecReload' && mine.some((f) => roleOf(f.kind, f.settings) !== 'jobs')) continue;
      let cands = sameName(g);
      // Directives that occur several times (proxy_set_header Host …, listen …) are told apart by their
      // first word; blocks (location = /up) by their whole header; YAML keys by their place in the tree.
      // Puma's `plugin` lines are a set (each loads one plugin): the wizard's plugin is another line beside the app's,
      // never a replacement for it (`plugin :solid_queue` is how that app runs its jobs).
      const plugins = kind === 'puma' && g.key === 'plugin';
      const multi = kind !== 'database-yml' && (plugins || settings.filter((x) => x.key === g.key).length > 1 || new Set(cands.map(({ s }) => first(s.value))).size > 1);
      const others = plugins ? cands.map(({ s }) => s.value) : [];
      const loose = presenceOnly(g);
      if (multi && g.block) cands = cands.filter(({ s }) => sameValue(kind, g.key, s.value, g.value));
      else if (multi && !loose) cands = cands.filter(({ s }) => (plugins ? sameValue(kind, g.key, s.value, g.value) : first(s.value) === first(g.value)));
      if (loose && cands.length) continue;
      // database.yml without this environment's section: DATABASE_URL configures it, nothing is missing.
      if (kind === 'database-yml' && !mine.some((f) => f.settings.some((s) => scope(s) === scope(g)))) continue;
      const assumes = sensitive(gf.path, g.key);
      // No pool: Rails' default of 5 applies (HashConfig#max_connections); as large as the wizard's is no finding,
      // nor is a larger wizard pool that rests on answers the files do not tell (WebSockets adds Action Cable's 4
      // workers): a pool below the app's own threads is problems.mjs's error, not a guess here.
      if (kind === 'database-yml' && !cands.length && (g.key === 'pool' || g.key === 'max_connections') && (Number(g.value) <= 5 || assumes.length)) continue;
      const gv = g.value;
      const base = { setting: g.key, reason: g.why, evidence: g.evidence, generated: gf.path, ...(assumes.length ? { assumes } : {}) };
      if (cands.some(({ f, s }) => sameValue(kind, g.key, userValue(kind, s, env), gv))) continue;
      // A secret the wizard leaves empty for the operator (DATABASE_PASSWORD=): any value is theirs, and not echoed.
      if (kind === 'env' && cands.length && String(gv ?? '') === '') continue;
      // A value the files cannot tell (ERB, a method call, an ENV variable production sets) is unknown, not different.
      if (cands.length && cands.every(({ s }) => unknownValue(kind, s, env))) continue;
      // A pool larger than the wizard's default serves the app's own threads, job runners and embedded
      // workers: suggesting the smaller one would break it (connections in all are checked in crossfile.mjs).
      if (cands.length && (g.key === 'pool' || g.key === 'max_connections') && cands.some(({ s }) => Number(userValue(kind, s, env)) >= Number(gv))) continue;
      if (cands.length) {
        // The setting read last is the one in effect (postgresql.conf, sysctl, env); nginx: the first in its block.
        const { f, s } = ['pgconf', 'sysctl', 'env'].includes(kind) ? cands[cands.length - 1] : cands[0];
        // Named by the app's own key (pool: where the file writes pool:, though the wizard writes max_connections).
        const key = s.key || s.name;
        const suggestion = suggestedLines(gf, g, kind, f, parsed, key, mine);
        const where = s.branch?.length ? ` (in the branch \`${s.branch[s.branch.length - 1].cond}\`, line ${s.branch[s.branch.length - 1].line})` : '';
        // Severity policy: a value that only differs from the wizard's preference is a note; harm with
        // evidence (problems.mjs, crossfile.mjs, obsolete.mjs) is a warning or an error. The app's value works:
        // the wizard's is labelled as its preference, and a wizard number is never written as a diff (choice.mjs).
        const choice = wizardChoice(suggestion, assumes);
        findings.push({
          rule: 'differs', severity: 'note', file: f.path, line: s.line, found: userValue(kind, s, env), expected: gv,
          message: `${key} is ${userValue(kind, s, env)}${where}; the wizard's preference for these answers is ${gv || 'another value'}${choice ? `, a choice: ${choice}` : ''}`,
          diff: f.text && suggestion && !choice ? replaceLine(f.path, f.text, s.line, suggestion) : null, ...base, setting: key,
        });
      } else {
        // An environment variable is worth setting only where the app's own files read it (env-missing.mjs).
        if (kind === 'env') {
          reads ??= appEnvReads(userFiles);
          const target = insertionPoint(mine, g, kind, genRole);
          const note = envMissing(g, gf, { reads, env, target, assumes, envFiles: mine.map((f) => f.path) });
          if (note) findings.push({ ...note, ...base, reason: note.reason });
          continue;
        }
        // Absent but no difference: the program's default is the wizard's value, or the file delegates (absent.mjs).
        const section = mine.flatMap((f) => f.settings.filter((s) => s.path && scope(s) === scope(g)));
        if (mine.some((f) => absentIsFine(kind, g.key, { file: f, files: userFiles, section, answers, env, generated: gv }))) continue;
        const target = insertionPoint(mine, g, kind, genRole);
        const alias = (ALIASES[g.key] || []).find((k) => mine.some((x) => x.settings.some((u) => u.key === k)) && !mine.some((x) => x.settings.some((u) => u.key === g.key)));
        const key = alias || g.key;
        const suggestion = suggestedLines(gf, g, kind, target.f, parsed, key, mine);
        const choice = wizardChoice(suggestion, assumes);
        findings.push({
          rule: 'missing', severity: 'note', file: target.f.path, line: target.line, anchor: target.anchor, found: null, expected: gv,
          message: `${others.length ? `${key} ${gv} is not set (the file loads ${others.join(', ')})` : `${key} is not set`}; the wizard's preference for these answers is ${gv ? `${key} ${gv}` : key}${choice ? `, a choice: ${choice}` : ''}`,
          diff: target.f.text && suggestion && !target.noDiff && !target.f.unmodeled && !choice ? insertAfter(target.f.path, target.f.text, target.line, suggestion, target.indent) : null, ...base, setting: key,
        });
      }
    }
  }
  return { findings, compared, notCompared };
}

// Env files of the job process, by name (crossfile.mjs envOf and jobs.mjs jobEnvOf tell them apart the same way).
const JOB_ENV = /job|worker|queue|sidekiq/i;
const baseName = (p) => String(p).split('/').pop();

function unknownValue(kind, s, env) {
  const v = userValue(kind, s, env);
  if (v === null || v === undefined || String(v).trim() === '') return true;
  if (RUBY_KINDS.has(kind) && s.args) return s.args.some((a) => (!a.known && !(a.env && env.has(a.env))) || (a.env && DEPLOY_SET.has(a.env) && !env.has(a.env)));
  if (kind === 'database-yml') return s.known === false || (s.env && DEPLOY_SET.has(s.env) && !env.has(s.env));
  return false;
}

/** The generated lines for one setting: its line, a whole block (hook, nginx block), locals rewritten for file `f`. */
function suggestedLines(gf, g, kind, f, parsed, key = g.key, mine = [f]) {
  const lines = gf.content.split('\n');
  const at = g.line - 1;
  if (at < 0 || at >= lines.length) return null;
  let out = [lines[at]];
  if (RUBY_KINDS.has(kind) && g.block) {
    const ind = /^\s*/.exec(lines[at])[0];
    const end = lines.findIndex((l, k) => k > at && l === `${ind}end`);
    if (end > at) out = lines.slice(at, end + 1);
  } else if ((kind === 'nginx') && g.block) {
    let depth = 0;
    const block = [];
    for (let k = at; k < lines.length; k++) {
      block.push(lines[k]);
      depth += (lines[k].match(/\{/g) || []).length - (lines[k].match(/\}/g) || []).length;
      if (depth <= 0 && k > at) break;
    }
    out = block;
  }
  if (RUBY_KINDS.has(kind)) out = ownLocals(out, parsed?.assigns || [], f?.assigns || []);
  if (kind === 'nginx') out = ownNginxNames(out, gf.content, mine.map((x) => x.text || ''));
  if (kind === 'database-yml') out = [`${key}: ${lines[at].split(':').slice(1).join(':').trim()}`];
  return out;
}

/** Where a missing setting goes: after the last setting of the same block/section, else at the end. */
function insertionPoint(mine, g, kind, genRole) {
  // The wizard writes Rails 8's production: > primary: layout; an app with one database writes production: > key.
  // Its key goes in that section, not at the end of the file (where it became a top-level key before trial 7).
  if (kind === 'database-yml' && g.path?.length === 3 && g.path[1] === 'primary') {
    const flat = { ...g, path: [g.path[0], g.path[2]] };
    const inFlat = mine.some((f) => f.settings.some((s) => s.path?.length === 2 && s.path[0] === g.path[0]));
    const inPrimary = mine.some((f) => f.settings.some((s) => s.path?.length === 3 && s.path[0] === g.path[0] && s.path[1] === 'primary'));
    if (inFlat && !inPrimary) return insertionPoint(mine, flat, kind, genRole);
  }
  for (const f of mine) {
    const ctx = nginxCtx(g, genRole, f);
    // YAML files (database.yml, sidekiq.yml, queue.yml, deploy.yml): the same parent mapping, never a list item.
    const sameCtx = f.settings.filter((s) => !s.conditional && ((kind === 'database-yml' || (g.path && s.path))
      ? s.path && g.path && !s.path.some((p) => typeof p === 'number' || /^\d+$/.test(p)) && s.path.length === g.path.length && s.path.slice(0, -1).join('.') === g.path.slice(0, -1).join('.')
      : (s.ctx ?? '') === ctx && (s.section ?? '') === (g.section ?? '')));
    if (sameCtx.length) {
      const last = sameCtx.reduce((a, b) => (b.line > a.line ? b : a));
      const lineText = (f.text || '').split('\n')[last.line - 1] || '';
      // anchor: the first line of that block or section (where SARIF points), line: where the suggestion goes.
      const anchor = sameCtx.reduce((a, b) => (b.line < a.line ? b : a)).line;
      return { f, line: blockEnd(f.text, last.line, kind), anchor, indent: /^\s*/.exec(lineText)[0] };
    }
  }
  const f = mine[0];
  const n = (f.text || '').replace(/\n+$/, '').split('\n').length;
  // An nginx directive that belongs inside a block (events, http > server) with nothing of that block to follow:
  // the end of the file is the main context, where nginx refuses it. The finding stays, without a diff.
  if (kind === 'nginx' && nginxCtx(g, genRole, f)) return { f, line: n, anchor: 1, indent: '', noDiff: true };
  // A YAML key that belongs under a section (production: > adapter) with nothing of that section to follow: the end
  // of the file is the top level, where the key would become a section of its own (Rails then refuses to boot).
  if (g.path?.length > 1) return { f, line: n, anchor: 1, indent: '', noDiff: true };
  return { f, line: n, anchor: 1, indent: '' };
}

// A generated site file is included inside http {}: its top level is the http block of a user's main nginx.conf.
function nginxCtx(g, genRole, f) {
  const ctx = g.ctx ?? '';
  if (genRole !== 'site' || roleOf(f.kind, f.settings) !== 'main') return ctx;
  return ctx ? `http > ${ctx}` : 'http';
}

// After a Ruby hook or nginx block, insert after its end, not inside it.
function blockEnd(text, line, kind) {
  const lines = (text || '').split('\n');
  const l = lines[line - 1] || '';
  if (RUBY_KINDS.has(kind) && /\bdo(\s*\|[^|]*\|)?\s*$/.test(l)) {
    const ind = /^\s*/.exec(l)[0];
    const end = lines.findIndex((x, k) => k >= line && x === `${ind}end`);
    return end >= 0 ? end + 1 : line;
  }
  if (kind === 'nginx' && /\{\s*$/.test(l)) {
    let depth = 0;
    for (let k = line - 1; k < lines.length; k++) {
      depth += (lines[k].match(/\{/g) || []).length - (lines[k].match(/\}/g) || []).length;
      if (depth <= 0) return k + 1;
    }
  }
  return line;
}
