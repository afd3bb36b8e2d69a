// PostgreSQL sizing with PGTune's "web application" formulas (le0pard/pgtune,
// src/features/configuration/configurationSlice.js), restricted to the settings the chosen PostgreSQL version
// reads. Input sizes in kB like PGTune; output [{key, value}] with sizes in kB (the generator formats them).
// Where this module differs from PGTune, the comment says why.
import { gte } from './version.mjs';

const GB = 1048576; // kB
const MB = 1024;

/** Background processes PostgreSQL counts against MAX_BACKENDS besides max_connections. */
export function pgParallelWorkers(cores) {
  return cores >= 4 ? cores : 8; // PGTune: max_worker_processes = cores from 4 cores; else PostgreSQL's default 8
}

export function autovacuumWorkers(cores) {
  return cores >= 32 ? 5 : cores >= 16 ? 4 : 3; // PGTune; 3 is PostgreSQL's default
}

/** PGTune's work_mem before its 4 MB floor (kB). */
export function rawWorkMemKb({ ramKb, cores, connections }) {
  const shared = Math.floor(ramKb / 4);
  return (ramKb - shared) / ((connections + pgParallelWorkers(cores)) * 3);
}

/**
 * pgtune({ramKb, cores, connections, storage: 'hdd'|'ssd'|'nvme', version, os: 'linux'|'freebsd'|'macos'})
 * → [{key, value, kind: 'size'|'plain', since}] in PGTune's output order.
 */
export function pgtune({ ramKb, cores, connections, storage, version, os }) {
  const v = (x) => gte(version, x);
  const out = [];
  const add = (key, value, kind = 'plain', when = true) => { if (when && value !== null && value !== undefined) out.push({ key, value, kind }); };
  const shared = Math.floor(ramKb / 4);
  const maint = Math.min(Math.floor(ramKb / 16), 8 * GB);
  let wal = Math.min(Math.floor((3 * shared) / 100), 16 * MB);
  if (wal > 14 * MB && wal < 16 * MB) wal = 16 * MB;
  if (wal < 32) wal = 32;
  const work = Math.max(4 * MB, Math.floor(rawWorkMemKb({ ramKb, cores, connections })));
  add('max_connections', connections);
  add('shared_buffers', shared, 'size');
  add('effective_cache_size', Math.floor((ramKb * 3) / 4), 'size');
  add('maintenance_work_mem', maint, 'size');
  add('checkpoint_completion_target', 0.9, 'plain', v('8.3'));
  add('wal_buffers', wal, 'size', v('8.3'));
  add('default_statistics_target', 100);
  add('random_page_cost', storage === 'hdd' ? 4 : 1.1);
  // posix_fadvise prefetching: PGTune writes it for Linux only (FreeBSD/macOS builds leave it at the default).
  add('effective_io_concurrency', { hdd: 2, ssd: 200, nvme: 1000 }[storage], 'plain', os === 'linux' && v('8.4'));
  add('work_mem', work, 'size');
  // Huge pages exist from 9.4 and only on Linux (and Windows) builds; PGTune writes "off" below 2 GB of buffers.
  add('huge_pages', shared >= 2 * GB ? 'try' : 'off', 'plain', os === 'linux' && v('9.4'));
  add('jit', 'off', 'plain', v('12')); // on by default from 12; hurts short OLTP queries
  add('wal_compression', v('15') ? 'lz4' : 'on', 'plain', v('10'));
  add('autovacuum_max_workers', cores >= 32 ? 5 : cores >= 16 ? 4 : null);
  add('autovacuum_work_mem', maint >= 2 * GB ? 2 * GB : null, 'size', v('9.4'));
  // PGTune writes io_method = io_uring on Linux for 18; io_uring exists only in builds configured --with-liburing,
  // and a server without it refuses to start, so the default (worker) stays; see the generator's comment.
  const ioWorkers = Math.min(32, Math.max(3, Math.floor(cores / 4)));
  add('io_workers', ioWorkers > 3 ? ioWorkers : null, 'plain', v('18'));
  // WAL sizes replaced checkpoint_segments in 9.5.
  add('min_wal_size', 1 * GB, 'size', v('9.5'));
  add('max_wal_size', 4 * GB, 'size', v('9.5'));
  if (cores >= 4) {
    const half = Math.min(4, Math.ceil(cores / 2));
    add('max_worker_processes', cores, 'plain', v('9.4'));
    add('max_parallel_workers_per_gather', half, 'plain', v('9.6'));
    add('max_parallel_workers', cores, 'plain', v('10'));
    add('max_parallel_maintenance_workers', half, 'plain', v('11'));
  }
  return out;
}
