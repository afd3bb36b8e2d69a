// Files of an app root that its own tree names but the fixed list of collect.mjs does not hold:
// - systemd units the app ships for its hosts (mushroom-observer's config/etc/puma.service and solidqueue.service),
//   read as if they were given on the command line, so that solid-queue-twice.mjs sees them on a plain app-folder run.
// Bounded (LIMITS.appUnits) and read through collect()'s own size, count and link checks.

// Folders where apps keep the units they install (found in the trial apps and the corpus: config/etc, deploy, …).
export const UNIT_DIRS = ['config/etc', 'config/systemd', 'config/deploy/systemd', 'deploy', 'deploy/systemd', 'systemd'];

/** Unit file paths (*.service) in UNIT_DIRS, sorted, at most `max`. list(dir) → names. */
export function appUnitPaths(list, max) {
  return UNIT_DIRS.flatMap((d) => list(d).filter((n) => n.endsWith('.service')).sort().map((n) => `${d}/${n}`)).slice(0, max);
}
