// Reading and checking the settings file of bench-ruby-settings.
import fs from 'node:fs';
import yaml from 'js-yaml';
import { UsageError } from './common.mjs';

const CONFIG_KEYS = new Set(['name', 'env', 'workers', 'threads', 'jemalloc', 'preload']);
const TOP_KEYS = new Set(['defaults', 'configurations']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Variables the runner itself controls; a configuration must not change them.
const RESERVED_ENV = new Set(['BUNDLE_GEMFILE', 'PATH', 'RACK_ENV', 'HOME']);

export const JEMALLOC_PATHS = [
  '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2',
  '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2',
  '/usr/lib64/libjemalloc.so.2',
  '/usr/lib/libjemalloc.so.2',
  '/usr/local/lib/libjemalloc.so.2',
  '/usr/local/lib/libjemalloc.so',
  '/opt/homebrew/lib/libjemalloc.dylib',
];

export function findJemalloc() {
  return JEMALLOC_PATHS.find((p) => fs.existsSync(p)) || null;
}

function checkInt(where, key, value, lo, hi) {
  if (!Number.isInteger(value) || value < lo || value > hi) {
    throw new UsageError(`${where}: "${key}" must be a whole number from ${lo} to ${hi}, got ${JSON.stringify(value)}`);
  }
}

function checkConfig(where, c) {
  if (!c || typeof c !== 'object' || Array.isArray(c)) throw new UsageError(`${where}: expected a mapping (name:, env:, workers:, threads:, jemalloc:, preload:)`);
  for (const k of Object.keys(c)) {
    if (!CONFIG_KEYS.has(k)) throw new UsageError(`${where}: unknown key "${k}" (allowed: ${[...CONFIG_KEYS].join(', ')})`);
  }
  if (c.env !== undefined) {
    if (!c.env || typeof c.env !== 'object' || Array.isArray(c.env)) throw new UsageError(`${where}: "env" must be a mapping of VARIABLE: value`);
    for (const [k, v] of Object.entries(c.env)) {
      if (!ENV_NAME.test(k)) throw new UsageError(`${where}: "${k}" is not a valid environment variable name`);
      if (RESERVED_ENV.has(k)) throw new UsageError(`${where}: ${k} is set by the runner and cannot be changed per configuration`);
      if (v === null || typeof v === 'object') throw new UsageError(`${where}: env ${k} must be a string or number`);
    }
  }
  if (c.workers !== undefined) checkInt(where, 'workers', c.workers, 0, 64);
  if (c.threads !== undefined) checkInt(where, 'threads', c.threads, 1, 128);
  if (c.jemalloc !== undefined && typeof c.jemalloc !== 'boolean') throw new UsageError(`${where}: "jemalloc" must be true or false`);
  if (c.preload !== undefined && typeof c.preload !== 'boolean') throw new UsageError(`${where}: "preload" must be true or false`);
}

/**
 * Parse a settings YAML text into a list of fully resolved configurations:
 * {name, env: {K: 'v'}, workers, threads, jemalloc, preload}
 */
export function parseSettings(text, file = 'settings') {
  let doc;
  try {
    doc = yaml.load(text);
  } catch (err) {
    throw new UsageError(`${file} is not valid YAML: ${err.message.split('\n')[0]}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new UsageError(`${file}: expected a mapping with "configurations:" (and optionally "defaults:")`);
  for (const k of Object.keys(doc)) {
    if (!TOP_KEYS.has(k)) throw new UsageError(`${file}: unknown top-level key "${k}" (allowed: defaults, configurations)`);
  }
  const defaults = doc.defaults ?? {};
  checkConfig(`${file}: defaults`, defaults);
  if ('name' in defaults) throw new UsageError(`${file}: defaults cannot have a name`);
  if (!Array.isArray(doc.configurations) || doc.configurations.length === 0) {
    throw new UsageError(`${file}: "configurations:" must be a non-empty list`);
  }
  if (doc.configurations.length > 20) throw new UsageError(`${file}: at most 20 configurations per file`);
  const names = new Set();
  return doc.configurations.map((c, i) => {
    const where = `${file}: configurations[${i}]`;
    checkConfig(where, c);
    if (typeof c.name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._+-]{0,39}$/.test(c.name)) {
      throw new UsageError(`${where}: every configuration needs a "name" of letters, digits, . _ + - (max 40)`);
    }
    if (names.has(c.name)) throw new UsageError(`${where}: the name "${c.name}" is used twice`);
    names.add(c.name);
    const env = Object.fromEntries(Object.entries({ ...(defaults.env || {}), ...(c.env || {}) }).map(([k, v]) => [k, String(v)]));
    return {
      name: c.name,
      env,
      workers: c.workers ?? defaults.workers ?? 0,
      threads: c.threads ?? defaults.threads ?? 5,
      jemalloc: c.jemalloc ?? defaults.jemalloc ?? false,
      preload: c.preload ?? defaults.preload ?? false,
    };
  });
}

export function readSettings(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read settings file "${file}": ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  }
  return parseSettings(text, file);
}

export function envString(env) {
  const entries = Object.entries(env);
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(' ') : '(none)';
}
