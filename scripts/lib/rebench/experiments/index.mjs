// The experiments scripts/rebench knows, in the order --list prints them and a full run executes them.
import staticFiles from './static.mjs';

export const EXPERIMENTS = [staticFiles];
export const byName = (name) => EXPERIMENTS.find((e) => e.name === name);
