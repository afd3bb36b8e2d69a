// The run order of an experiment and the names of its raw files: seeded random rounds, grouped into one
// invocation per place (the host or a lab Ruby) and round.
import { makeRng, shuffle } from '../measure/common.mjs';

/**
 * The run order: `runs` rounds; in each round every cell once, shuffled, then grouped by where it
 * runs (host or a lab Ruby) so that one round costs one invocation per place, with the places in a
 * shuffled order as well. Measurements inside a cell (pages, routes) get their own shuffled order.
 */
export function drawPlan(cells, runs, seed) {
  const rng = makeRng(seed);
  const plan = [];
  for (let round = 1; round <= runs; round += 1) {
    const order = shuffle(cells, rng);
    const places = shuffle([...new Set(order.map(placeOf))], rng);
    for (const place of places) {
      for (const cell of order.filter((c) => placeOf(c) === place)) {
        plan.push({ idx: plan.length + 1, cell: cell.id, run: round, place, measurements: shuffle(cell.measurements.map((m) => m.id), rng) });
      }
    }
  }
  return plan;
}

export function placeOf(cell) {
  // REBENCH_ON_HOST=1 (development only) runs lab cells on this machine's own packages.
  return cell.host || process.env.REBENCH_ON_HOST === '1' ? 'host' : `lab:${cell.ruby || '3.3'}`;
}

/** Consecutive plan entries with the same place run in one invocation. */
export function batches(plan) {
  const out = [];
  for (const entry of plan) {
    const last = out[out.length - 1];
    if (last && last.place === entry.place) last.entries.push(entry);
    else out.push({ place: entry.place, entries: [entry] });
  }
  return out;
}

export const rawName = (entry, measurement) => `${String(entry.idx).padStart(3, '0')}-${entry.cell}-r${entry.run}${measurement ? `-${measurement}` : ''}`;
