// Parsing and validation of answers. Shared by the page (forgiving: drop and note) and the CLI (strict: exit 2).
import { QUESTIONS, DEFAULTS } from './questions.mjs';
import { VERSION_RE } from './version.mjs';
import { answerProblem, reasonText, allowedText } from './deploy-policy.mjs';
import { choiceDefault, choiceOf, versionProblem } from './version-defaults.mjs';
import { t } from './text.mjs';

const BY_KEY = new Map(QUESTIONS.map((q) => [q.key, q]));
const STRING_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const IPV4 = '(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const FORMAT_RE = {
  version: VERSION_RE,
  address: new RegExp(`^(?:auto|${IPV4})$`),
  addresses: new RegExp(`^(?:auto|${IPV4}(?:,${IPV4}){0,999})$`),
  // Values that end up in paths, unit files and server names: a strict alphabet so no answer can inject syntax.
  path: /^(?!.*\/\.\.?(\/|$))\/[A-Za-z0-9._/-]{0,62}$/, // ".." anywhere is refused by deploy-policy.mjs, with a reason
  domain: /^(?=.{1,63}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
  user: /^[a-z_][a-z0-9_-]{0,31}$/,
};
// The words of the notes and of the allowed values are in the catalog ("answers.*", catalog-questions.mjs), so the page
// fetches them as JSON; the page parses answers only once its catalog is installed, the CLI always has it.
const FORMAT_HELP = ['path', 'domain', 'user', 'version', 'address', 'addresses'];

const MAX_NOTES = 25;
// Version questions whose default and released series depend on another answer (capabilities/choice-versions.mjs).
const CHOICE_VERSION_KEYS = ['server_version', 'proxy_version', 'database_version', 'pooler_version', 'kernel'];
const versionMessage = (key, p) => t('answers.never', { key, v: p.v, label: p.label, known: p.known, current: p.current });
/** The words of a note about question `q`'s value (answers.note.<id>), with its label, key and default. */
const noteOn = (id, q, vars) => t(`answers.note.${id}`, { label: q.label, key: q.key, default: String(q.default), ...vars });

/** Keys whose default follows other answers: the version questions and those with `defaultBy` (questions.mjs). */
export const FOLLOWING_KEYS = [...CHOICE_VERSION_KEYS, ...QUESTIONS.filter((q) => q.defaultBy).map((q) => q.key)];

/** The default of `key` under answers `a` when it follows other answers (else null). */
export function dependentDefault(key, a) {
  if (CHOICE_VERSION_KEYS.includes(key)) return choiceDefault(key, a);
  for (const [k, table] of Object.entries(BY_KEY.get(key)?.defaultBy || {})) if (Object.hasOwn(table, a[k])) return table[a[k]];
  return null;
}

export function question(key) {
  return BY_KEY.get(key);
}

/** Human-readable description of the values a question accepts. */
export function allowedValues(q) {
  if (allowedText(q.key)) return [allowedText(q.key)];
  switch (q.type) {
    case 'enum': return q.options.map((x) => x.value);
    case 'integer': return [`integer ${q.min}..${q.max}`];
    case 'number': return [`number ${q.min}..${q.max}`];
    case 'boolean': return ['true', 'false'];
    default:
      return [t(`answers.format.${FORMAT_HELP.includes(q.format) ? q.format : 'string'}`)];
  }
}

/**
 * Coerce one raw value (string from a URL, or a typed JSON value). Returns {ok, value} or {ok: false, reason?}.
 * policy: false skips the place and account check (the configuration checker reads what a host already has).
 */
export function coerce(q, raw, { policy = true } = {}) {
  if (raw === null || raw === undefined) return { ok: false };
  if (typeof raw === 'object') return { ok: false };
  const s = String(raw).trim().replace(/\s*,\s*/g, ',');
  // An address list for 1000 hosts is long; every other answer fits in 64 characters.
  if (s.length === 0 || s.length > (q.format === 'addresses' ? 16000 : 64)) return { ok: false };
  switch (q.type) {
    case 'enum': {
      const v = s.toLowerCase();
      return q.options.some((x) => x.value === v) ? { ok: true, value: v } : { ok: false };
    }
    case 'integer': {
      if (typeof raw === 'number' ? !Number.isInteger(raw) : !/^\d{1,7}$/.test(s)) return { ok: false };
      const n = Number(s);
      return n >= q.min && n <= q.max ? { ok: true, value: n } : { ok: false };
    }
    case 'number': {
      if (typeof raw !== 'number' && !/^\d{1,7}(\.\d{1,4})?$/.test(s)) return { ok: false };
      const n = Number(s);
      return Number.isFinite(n) && n >= q.min && n <= q.max ? { ok: true, value: n } : { ok: false };
    }
    case 'boolean': {
      const v = s.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(v)) return { ok: true, value: true };
      if (['false', '0', 'no', 'off'].includes(v)) return { ok: true, value: false };
      return { ok: false };
    }
    default: {
      const re = FORMAT_RE[q.format] || STRING_RE;
      if (!re.test(s)) return { ok: false };
      const value = q.format === 'path' && s.length > 1 ? s.replace(/\/+$/, '') : s;
      // Paths and users: a place on the host and an account the bundle may use (deploy-policy.mjs).
      const reason = policy ? answerProblem(q.key, value) : null;
      return reason ? { ok: false, reason } : { ok: true, value };
    }
  }
}

function entriesOf(raw) {
  if (!raw) return [];
  if (typeof raw === 'string') return [...new URLSearchParams(raw)];
  if (typeof URLSearchParams !== 'undefined' && raw instanceof URLSearchParams) return [...raw];
  if (typeof raw === 'object' && !Array.isArray(raw)) return Object.keys(raw).map((k) => [k, raw[k]]);
  return [];
}

/**
 * Forgiving parse (page, shared URLs): unknown keys and invalid values are dropped, defaults used,
 * and each produces a note {key, message}. Notes never contain the raw value; an unknown key is not echoed either.
 */
export function parseAnswers(raw, { policy = true, date } = {}) {
  const answers = { ...DEFAULTS };
  const notes = [];
  let unknown = 0;
  let dropped = 0;
  const seen = new Set();
  const push = (note) => { if (notes.length < MAX_NOTES) notes.push(note); else dropped++; };
  for (const [k, v] of entriesOf(raw)) {
    const q = typeof k === 'string' ? BY_KEY.get(k) : undefined;
    if (!q) {
      unknown++;
      const len = String(k).length;
      push({ key: null, message: t('answers.note.unknown', { len, s: len === 1 ? '' : 's' }) });
      continue;
    }
    if (seen.has(q.key)) {
      push({ key: q.key, message: noteOn('twice', q) });
      continue;
    }
    seen.add(q.key);
    const c = coerce(q, v, { policy });
    if (c.ok) answers[q.key] = c.value;
    else if (c.reason) push({ key: q.key, message: noteOn('refused', q, { reason: reasonText(c.reason), allowed: allowedValues(q)[0] }) });
    else push({ key: q.key, message: noteOn('invalid', q) });
  }
  // A version left out takes the chosen server's, proxy's, database's or release's own (never another choice's
  // default: "Unicorn 8.0"); one never released for the choice is a note and that default (the CLI exits 2).
  for (const key of CHOICE_VERSION_KEYS) {
    const p = seen.has(key) && versionProblem(key, answers, answers[key]);
    if (seen.has(key) && !p) continue;
    if (p) push({ key, message: t('answers.note.version', { never: versionMessage(key, p), default: choiceDefault(key, answers, date) }) });
    answers[key] = choiceDefault(key, answers, date) || answers[key];
  }
  // An adapter left out is the database's own (mysql2 for MySQL), not PostgreSQL's pg with an error.
  for (const q of QUESTIONS) if (q.defaultBy && !seen.has(q.key)) answers[q.key] = dependentDefault(q.key, answers) ?? answers[q.key];
  if (dropped > 0) notes.push({ key: null, message: t('answers.note.dropped', { n: dropped }) });
  return { answers, notes, unknown };
}

/**
 * Strict validation for the CLI: returns [{key, message, allowed}] (empty when all answers are valid).
 * partial (the checker, which detects the server/proxy/database from the host's files and validates the rest on its
 * own): a version is checked against its choice only when the answers name that choice too.
 */
export function validateAnswers(answers, { policy = true, partial = !policy } = {}) {
  const errors = [];
  if (!answers || typeof answers !== 'object' || Array.isArray(answers)) {
    return [{ key: null, message: 'answers must be a JSON object', allowed: QUESTIONS.map((q) => q.key) }];
  }
  for (const k of Object.keys(answers)) {
    const q = BY_KEY.get(k);
    if (!q) {
      errors.push({ key: k, message: `unknown key "${k}"`, allowed: QUESTIONS.map((x) => x.key) });
      continue;
    }
    const c = coerce(q, answers[k], { policy });
    if (!c.ok) errors.push({ key: k, message: `invalid value for "${k}" (${q.label})${c.reason ? `: ${JSON.stringify(String(answers[k]))} ${reasonText(c.reason)}` : ''}`, allowed: allowedValues(q) });
  }
  if (errors.length) return errors;
  const chosen = parseAnswers(answers, { policy }).answers;
  for (const key of CHOICE_VERSION_KEYS) {
    const choice = choiceOf(key);
    const p = key in answers && !(partial && choice && !(choice in answers)) && versionProblem(key, chosen, coerce(BY_KEY.get(key), answers[key]).value);
    if (p) errors.push({ key, message: `invalid value for "${key}": ${versionMessage(key, p)}`, allowed: [p.known] });
  }
  return errors;
}

/** Fill defaults and coerce; assumes validateAnswers passed (invalid values fall back to defaults). */
export function normalize(answers) {
  return parseAnswers(answers || {}).answers;
}

/** Shareable query string with only the non-default answers, in question order. */
export function toQuery(answers) {
  const a = normalize(answers);
  const p = new URLSearchParams();
  for (const q of QUESTIONS) {
    // A version or adapter equal to its choice's default (Unicorn 6.1 for server=unicorn, mysql2 for MySQL) is left
    // out like any other default.
    const def = FOLLOWING_KEYS.includes(q.key) ? dependentDefault(q.key, a) || q.default : q.default;
    if (a[q.key] !== def) p.set(q.key, String(a[q.key]));
  }
  return p.toString();
}

export function fromQuery(search) {
  const s = String(search || '').replace(/^\?/, '');
  return parseAnswers(new URLSearchParams(s));
}
