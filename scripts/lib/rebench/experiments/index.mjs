// The experiments scripts/rebench knows, in the order --list prints them and a full run executes them.
import staticFiles from './static.mjs';
import appservers from './appservers.mjs';
import proxies from './proxies.mjs';
import interpreters from './interpreters.mjs';
import allocators from './allocators.mjs';
import gc from './gc.mjs';
import patterns from './patterns.mjs';
import concurrency from './concurrency.mjs';
import caching from './caching.mjs';
import bundleVsDefaults from './bundle.mjs';
import jobs from './jobs.mjs';
import timeouts from './timeouts.mjs';
import logging from './logging.mjs';
import replica from './replica.mjs';

export const EXPERIMENTS = [staticFiles, appservers, proxies, interpreters, allocators, gc, patterns, concurrency, caching, bundleVsDefaults, jobs, timeouts, logging, replica];
export const byName = (name) => EXPERIMENTS.find((e) => e.name === name);
