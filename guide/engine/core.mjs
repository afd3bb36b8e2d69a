// Scaling Rails configuration wizard engine core: answers → {files, advice, warnings, model}.
// Plain ES module, no DOM. The words (reasons, warnings, advice) come from a catalog: index.mjs installs
// catalog.mjs for Node; the page installs the same catalog fetched as JSON (setCatalog), which keeps its
// JavaScript small. This module runs every generator (generators/index.mjs); the page runs the same pipeline
// over a list it loads lazily (guide/ui/generators.mjs).
import { generateWith } from './pipeline.mjs';
import { GENERATORS } from './generators/index.mjs';

export * from './pipeline.mjs';

/**
 * generate(answers, {date, permalink, base}) → {files, advice, warnings, model, notes}.
 * `answers` may be raw (strings); invalid values fall back to defaults and produce notes.
 */
export function generate(rawAnswers = {}, options = {}) {
  return generateWith(GENERATORS, rawAnswers, options);
}
