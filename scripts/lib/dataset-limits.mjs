// The limits every dataset file is held to, and why (CONTRIBUTING.md "Limits" repeats them). A file past a
// limit is refused with its position before anything else reads it: the validator, the build and the
// preview all run on files a pull request wrote, so none of them may be made to use unbounded time,
// memory or stack by one.
export const DATASET_LIMITS = Object.freeze({
  // The largest dataset on the site is 32 KB; an `ab -g` import of 10,000 requests is about 1 MB.
  bytes: 2 * 1024 * 1024,
  // Objects and arrays inside each other. The deepest dataset (a layered chart spec) has 11 levels; every
  // level costs stack in each reader (the position-keeping parser, ajv, Vega-Lite).
  depth: 32,
  // Each row becomes a row of the dataset page's table and a record in every chart: 10,000 rows keep the
  // page near 1 MB and a chart's rendering within seconds (a million rows made a 65 MB page, and with a
  // chart the build ran out of memory at 4.5 GB).
  rows: 10000,
  cells: 100000,
});

// Numbers are stored as IEEE 754 doubles by every JSON reader (the browser's, Vega's, the CSV export):
// an integer beyond 2^53 or a number below the smallest normal double would be silently changed.
export const MAX_EXACT_INTEGER = Number.MAX_SAFE_INTEGER; // 2^53 − 1
export const MIN_NORMAL = 2.2250738585072014e-308;
