// The dataset's one record of the tries the driver repeated (quality.repeats): how many, for which reason, per
// configuration. lab/bench/protocol.sh gives every repeated try exactly one reason, the first that applies:
//   disturbed  other programs or the hypervisor took CPU (protocol version 1 on; counted from version 4),
//   unsteady   an in-process run did not hold its fast speed (the plateau check; version 3 on, counted from 4),
//   slow_host  the host-speed probe found the host slow during a load run (version 5 only: from 6 it records),
//   unsteady_throughput  a load run's responses per window strayed from its own median (steadiness.rb, version 6 on).
// A run's .protocol file counts them (repeats_disturbed, repeats_unsteady, repeats_slow_host, and from version 6
// repeats_unsteady_throughput), so they add up to its tries less one. Output from before version 4 has no counts,
// and the dataset no record: a zero would be untrue. For the same reason unsteady_throughput is in the record only
// where some run's driver counted it (a version 5 dataset rebuilt today reads as it did).
import fs from 'node:fs';
import path from 'node:path';

export const REPEAT_REASONS = ['disturbed', 'unsteady', 'slow_host', 'unsteady_throughput'];
// Reasons a driver counts only from a later version than the record itself (4): left out where no run counted them.
const LATER_REASONS = new Set(['unsteady_throughput']);

/** The configuration a run belongs to, as the record and the page name it: "cell / measurement". */
export const configKey = (r) => [r.cell && r.cell.id, r.measurement && r.measurement.id].filter(Boolean).join(' / ') || 'run';

/** A protocol record's repeats by reason; null where the driver did not count them (before version 4). */
export function repeatsOf(p) {
  if (!p || !REPEAT_REASONS.some((why) => `repeats_${why}` in p)) return null;
  return Object.fromEntries(REPEAT_REASONS.map((why) => [why, Number(p[`repeats_${why}`]) || 0]));
}

/**
 * quality.repeats of a dataset's measured runs, the open-loop runs after a page's closed-loop run included (each is
 * tried and repeated on its own): { disturbed, unsteady, slow_host, unsteady_throughput (version 6), by_configuration:
 * { KEY: { the same } } }, or null when no run counted its repeats.
 */
export function repeatRecord(runs) {
  const zero = () => Object.fromEntries(REPEAT_REASONS.map((why) => [why, 0]));
  const out = { ...zero(), by_configuration: {} };
  let counted = false;
  const countedLater = new Set();
  for (const r of runs) {
    for (const p of [r.protocol, ...Object.values(r.openLoop || {}).map((o) => o.protocol)]) {
      const n = repeatsOf(p);
      if (!n) continue;
      counted = true;
      for (const why of LATER_REASONS) if (`repeats_${why}` in p) countedLater.add(why);
      const key = configKey(r);
      const row = out.by_configuration[key] || (out.by_configuration[key] = zero());
      for (const why of REPEAT_REASONS) {
        row[why] += n[why];
        out[why] += n[why];
      }
    }
  }
  if (!counted) return null;
  for (const why of LATER_REASONS) {
    if (countedLater.has(why)) continue;
    delete out[why];
    for (const row of Object.values(out.by_configuration)) delete row[why];
  }
  return out;
}

/**
 * Why each repeated try of a run was repeated, in try order (runs.csv's repeated_because): from the kept tries'
 * BASE.disturbed-N.protocol (repeated_because=, version 4 on). Drivers of versions 1 and 2 repeated for disturbance
 * alone, so their tries need no record; a later try whose record does not say is "unrecorded". [] for one try.
 */
export function readRepeatReasons(raw, base, protocol, version) {
  const tries = Number(protocol && protocol.tries) || 1;
  const out = [];
  for (let n = 1; n < tries; n += 1) {
    const file = path.join(raw, `${base}.disturbed-${n}.protocol`);
    const said = fs.existsSync(file) ? /^repeated_because=(\w+)$/m.exec(fs.readFileSync(file, 'utf8')) : null;
    out.push(said ? said[1] : version < 3 ? 'disturbed' : 'unrecorded');
  }
  return out;
}
