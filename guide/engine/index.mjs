// Scaling Rails configuration wizard engine (Node and tests): the core with the English catalog installed.
// API: GENERATOR_VERSION, QUESTIONS, DEFAULTS, parseAnswers, validateAnswers, generate, toQuery, fromQuery.
import { CATALOG } from './catalog.mjs';
import { setCatalog } from './core.mjs';

setCatalog(CATALOG);

export * from './core.mjs';
export { CATALOG };
