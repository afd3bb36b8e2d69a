// Words of the memory model (memory-budget.mjs, capabilities/memory.mjs): one booted copy of the app in the process
// the workers fork from, each worker's private share, and the advice that states the model with its sources.
// Spread into CATALOG by catalog.mjs; "cap.fork-memory" is the capability table, read through caps.mjs.
import { FORK_MEMORY } from './capabilities/memory.mjs';

export const MEMORY_CATALOG = {
  "cap.fork-memory": FORK_MEMORY,
  "mem.monitor": "{server} master (monitors the workers; does not load the app)",
  "mem.template.master": "{server} master: one booted copy of the app ({mb} MB), counted once; the workers share it copy-on-write",
  "mem.template.mold": "{server} mold: one booted copy of the app ({mb} MB), counted once; the workers are forked from it",
  "mem.template.preloader": "{server} preloader: one booted copy of the app ({mb} MB), counted once; smart spawning forks the workers from it",
  "mem.workers.private": "{n} × {server} worker ({each} MB each: {pct} % of the {mb} MB copy, the pages it writes after the fork)",
  "sum.mem.template.master": "copy of the app in the master",
  "sum.mem.template.mold": "copy of the app in the mold",
  "sum.mem.template.preloader": "copy of the app in the preloader",
  "sum.mem.monitor": "master (no app loaded)",
  "sum.mem.workers.private": "worker(s)",
  "sum.mem.private": "each worker {pct} % × {of} MB = {each} MB (its own pages; the shared rest is counted once, in the {template})",
  // worker_mb: what to measure, so that the model above gets the figure it expects.
  "mem.worker.measured": "You measured {mb} MB for one copy of the app.",
  "mem.worker.estimate": "Estimate of {mb} MB for one booted copy of the app: {why} Measure yours (the RSS of one worker after warm-up: `ps -o rss= -p PID`, in KiB) and enter it as worker_mb.",
  "mem.worker.model": "A forking server counts it once and {pct} % of it per worker (the advice \"Memory: one copy of the app, plus what each worker writes\" says why).",
  "q.worker_mb.help": "One booted copy of your app in MB: the RSS of one app server worker after warm-up (ps -o rss=), which counts the pages it shares with the master in full. Where the server forks its workers from a preloaded copy (Puma cluster, Unicorn, Pitchfork, Passenger smart spawning) the budget counts that copy once and 75 % of it per worker, a PSS budget; other servers and JRuby count it per process. 0 = the wizard's estimate.",
  "a.memory-model.title": "Memory: one copy of the app, plus what each worker writes",
  "a.memory-model": "The memory budget is a PSS budget (proportional set size, /proc/PID/smaps_rollup): a page that several processes share counts once in the sum. {server} boots the app once in its {template} ({mb} MB, worker_mb) and forks {n} worker(s) from it; pages neither writes stay shared (copy-on-write: Ruby's GC keeps its mark bits in a bitmap outside the objects since 2.0, and REE's copy-on-write-friendly GC did the same), so each worker adds only its own pages: {pct} % × {mb} MB = {each} MB. The lab's reference app (Rails 8.1, Puma 8) took about 115 MiB as one process and about 228 MiB as a master with 2 workers, so each worker added about half a copy after 10 s of load; the budget counts three quarters because shared pages erode as workers age (inline caches, YJIT code and memoised values are written after the fork). Enter worker_mb as the RSS of one worker (it counts the shared pages in full), not its PSS.",
  "a.memory-model.nocow": "{server} forks its workers from a booted copy of the app, but this Ruby's garbage collector writes its mark bits into the objects themselves (bitmap marking came with CRuby 2.0), so the first collection in each worker copies the pages it marks: the budget counts every worker as a whole copy ({mb} MB).",
  "ev.pumaPreload": "Puma README: clustered mode and preloading (copy-on-write)",
  "url.pumaPreload": "https://github.com/puma/puma#clustered-mode",
  "ev.unicornPreload": "Unicorn::Configurator#preload_app",
  "url.unicornPreload": "https://yhbt.net/unicorn/Unicorn/Configurator.html#method-i-preload_app",
  "ev.passengerSpawn": "Passenger: spawn methods (smart spawning and its preloader)",
  "url.passengerSpawn": "https://www.phusionpassenger.com/docs/references/config_reference/nginx/#passenger_spawn_method",
  "ds.rebench-2026-bundle-vs-defaults": "The wizard's bundle against Rails 8.1's defaults (2026): PSS of one process and of master + 2 workers",
  "ds.rebench-2026-app-servers": "App servers on the reference app (2026): PSS of each server's process tree",
};
