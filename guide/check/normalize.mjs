// Value equality per file kind: quotes, case of booleans, memory units in postgresql.conf,
// whitespace. Both sides (the generated bundle and the user's files) go through the same function.

const PG_8K = new Set(['shared_buffers', 'effective_cache_size', 'wal_buffers', 'temp_buffers']);
const PG_KB = new Set(['work_mem', 'maintenance_work_mem', 'autovacuum_work_mem', 'logical_decoding_work_mem', 'hash_mem_multiplier_unused']);
const UNIT_KB = { b: 1 / 1024, kb: 1, mb: 1024, gb: 1024 * 1024, tb: 1024 * 1024 * 1024 };
const BOOL = { on: 'true', yes: 'true', true: 'true', 1: 'true', off: 'false', no: 'false', false: 'false', 0: 'false' };

/** PostgreSQL memory values in kB ('256MB', 32768 pages of 8 kB, '4096kB'), or null if not a memory value. */
export function pgMemoryKb(name, value) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?B)?\s*$/.exec(String(value));
  if (!m) return null;
  const n = Number(m[1]);
  if (m[2]) return n * UNIT_KB[m[2].toLowerCase()];
  if (PG_8K.has(name)) return n * 8;
  if (PG_KB.has(name)) return n;
  return null;
}

// Adapters that wrap a driver's adapter under another name: makara (`mysql2_makara`, `postgresql_makara`,
// makara README) and active_record_proxy_adapters (`postgresql_proxy`, `mysql2_proxy`, `trilogy_proxy`).
const WRAPPERS = /^(mysql2|postgresql|postgis|trilogy|sqlite3)_(?:makara|proxy)$/;

/** The driver adapter under a wrapper's name (mysql2_makara → mysql2), else the name itself. */
export function baseAdapter(v) {
  const m = WRAPPERS.exec(String(v ?? ''));
  return m ? m[1] : String(v ?? '');
}

export function normalize(kind, name, value) {
  let v = String(value ?? '').trim().replace(/\s+/g, ' ');
  if (kind === 'pgconf') {
    const kb = pgMemoryKb(name, v);
    if (kb !== null) return `${kb}kB`;
    if (BOOL[v.toLowerCase()] && !/^\d+$/.test(v)) return BOOL[v.toLowerCase()];
    if (/^-?\d+(\.\d+)?$/.test(v)) return String(Number(v));
    return v;
  }
  if (kind === 'nginx' || kind === 'apache') return v.replace(/^(["'])(.*)\1$/, '$2');
  if (kind === 'pgbouncer' || kind === 'mycnf' || kind === 'sysctl') return /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v.toLowerCase();
  // PostGIS's adapter is the PostgreSQL adapter with spatial types (activerecord-postgis-adapter); wrappers name theirs.
  if (kind === 'database-yml' && name === 'adapter') { const b = baseAdapter(v); return b === 'postgis' ? 'postgresql' : b; }
  // Puma loads a plugin by name.to_s (lib/puma/plugin.rb): `plugin 'tmp_restart'` and `plugin :tmp_restart` are the same.
  if (kind === 'puma' && name === 'plugin') return v.replace(/^(["'])(.*)\1$/, '$2').replace(/^:/, '');
  if (kind === 'database-yml') return /^-?\d+(\.\d+)?$/.test(v) ? String(Number(v)) : v;
  return v;
}

export const sameValue = (kind, name, a, b) => normalize(kind, name, a) === normalize(kind, name, b);
