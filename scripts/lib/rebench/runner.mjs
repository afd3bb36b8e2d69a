// Runs one experiment: draws the seeded random run order (plan.mjs), executes it in the lab (or on the
// host, for the host's own Ruby), reads every raw output back (readback.mjs), and writes the dataset(s)
// atomically with their provenance. Experiments only describe cells and how to read them.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { REPO_ROOT, randomSeed, trackGroup, untrackGroup, stopGroup, onInterrupt } from '../measure/common.mjs';

const children = new Set();
import { machineFacts, loadAverage } from './machine.mjs';
import { stageRaw, discardStage, commitDataset } from './output.mjs';
import { driverParams, protocolSize, cellTimeoutS, PROTOCOL } from './protocol.mjs';
import { calibrationS } from './host-speed.mjs';
import { openLoopParams, FRACTIONS } from './openloop.mjs';
import { drawPlan, batches, rawName } from './plan.mjs';
import { readResults } from './readback.mjs';
import { runsCsv } from './runs-csv.mjs';

export const WORK_ROOT = path.join(REPO_ROOT, 'tmp', 'rebench-work');
const DRIVER = 'lab/bench/driver.sh';

function shellQuote(v) {
  return `'${String(v).replace(/'/g, "'\\''")}'`;
}

function runCommand(cmd, args, { timeoutMs, logFile }) {
  return new Promise((resolve) => {
    const log = fs.openSync(logFile, 'a');
    const child = spawn(cmd, args, { cwd: REPO_ROOT, detached: true, stdio: ['ignore', log, log], env: { ...process.env, LAB_DIR: process.env.LAB_DIR || path.join(REPO_ROOT, '.lab') } });
    trackGroup(child.pid);
    children.add(child.pid);
    const timer = setTimeout(() => { stopGroup(child.pid, 5000); }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      untrackGroup(child.pid);
      children.delete(child.pid);
      fs.closeSync(log);
      resolve({ code, signal });
    });
  });
}

/**
 * Rebuild the dataset(s) of a finished run from its raw output directory alone (provenance.json has the
 * plan, parameters, machine facts and versions), for example after the way a raw file is read changed.
 */
export function rebuildFromRaw(exp, rawDirPath) {
  const prov = JSON.parse(fs.readFileSync(path.join(rawDirPath, 'provenance.json'), 'utf8'));
  const size = prov.quick ? exp.quick : exp.full;
  const ids = [...new Set(prov.order.map((o) => o.cell))];
  const cells = exp.cells(size).filter((c) => ids.includes(c.id));
  const plan = prov.order.map((o) => ({ ...o }));
  const results = readResults(plan, cells, rawDirPath, prov.parameters || {});
  const ctx = {
    exp, quick: prov.quick, runs: prov.runs_per_cell, seed: prov.seed, plan, cells, results, machine: prov.machine,
    started: new Date(prov.started), finished: new Date(prov.finished), subset: prov.subset || null,
    load: prov.load_average, invocations: prov.invocations, params: prov.parameters, raw: rawDirPath, versions: prov.versions,
  };
  return { ctx, datasets: exp.datasets(ctx), runsCsv: runsCsv(results) };
}

/**
 * Run an experiment. Returns the paths of the datasets written, or { interrupted: SIGNAL } (nothing written).
 * opts: { quick, runs, outDir, seed, log(line), labBin, beforeCommit }
 */
export async function runExperiment(exp, opts) {
  const quick = Boolean(opts.quick);
  const size = quick ? exp.quick : exp.full;
  const all = exp.cells(size);
  // --cells a,b: only these configurations (for re-measuring a few; say so where the dataset is used).
  const cells = opts.cells ? all.filter((c) => opts.cells.includes(c.id)) : all;
  if (!cells.length) throw new Error(`${exp.name}: none of the cells ${opts.cells} exists; cells: ${all.map((c) => c.id).join(', ')}`);
  // The protocol's minimum run count and length apply to every full run (protocol.mjs).
  const sized = protocolSize(size.params, opts.runs ?? (quick ? 2 : 0), { quick });
  const runs = sized.runs;
  const seed = opts.seed ?? randomSeed();
  const plan = drawPlan(cells, runs, seed);
  const runId = `${exp.name}-${process.pid}-${Date.now()}`;
  const work = path.join(WORK_ROOT, runId);
  const raw = path.join(work, 'raw');
  fs.mkdirSync(raw, { recursive: true });
  const log = opts.log || (() => {});
  const outDir = path.resolve(opts.outDir);
  // --tag NAME: a contributor's datasets sit beside the published ones (…-NAME) instead of replacing them.
  const tagged = (id) => (opts.tag ? `${id}-${opts.tag}` : id);
  const ids = exp.datasetIds().map(tagged);
  const stages = Object.fromEntries(ids.map((id) => [id, stageRaw(outDir, id)]));
  let interrupted = null;
  // Ctrl-C / TERM: stop the lab (TERM first, so that scripts/lab stops its servers and undoes its mounts); the
  // finally block below then discards the staged files, and the caller exits with 130/143 without a dataset.
  onInterrupt((sig) => {
    interrupted = sig;
    log(`rebench: ${sig}: stopping ${exp.name}; no dataset is written`);
    for (const pid of children) stopGroup(pid, 15000);
  });
  try {
    const openLoop = cells.some((c) => c.measurements.some((m) => m.openLoop));
    const params = { ...sized.params, ...driverParams({ quick, noWait: opts.noWait }), ...(openLoop ? { ...openLoopParams({ quick, durationS: sized.params.RB_OPEN_DURATION_S }), RB_SEED: seed } : {}), RB_QUICK: quick ? 1 : 0 };
    fs.writeFileSync(path.join(work, 'params.env'), Object.entries(params).map(([k, v]) => `${k}=${shellQuote(v)}\n`).join(''));
    // An experiment may write inputs for the lab side into WORK first (bundle-vs-defaults: the wizard's bundle).
    if (exp.prepare) await exp.prepare({ work, raw, quick, params, log });
    const machine = machineFacts(outDir);
    const loadBefore = loadAverage();
    const started = new Date();
    const invocations = [];
    // Extra application servers (lab/bench/Gemfile) are installed once per machine, with the network.
    if (size.prepareGems && process.env.REBENCH_ON_HOST !== '1') {
      log(`rebench: ${exp.name}: installing or checking the extra server gems (lab/bench/prepare-gems.sh, network on)`);
      const cmd = opts.labBin || path.join(REPO_ROOT, 'scripts/lab');
      const args = ['run', '--net', 'host', '--timeout', '900', '--', 'bash', '/repo/lab/bench/prepare-gems.sh'];
      const res = await runCommand(cmd, args, { timeoutMs: 930000, logFile: path.join(raw, 'prepare-gems.log') });
      invocations.push({ place: 'lab:3.3 (network on)', command: [cmd, ...args].map((a) => a.replace(REPO_ROOT, '<repo>')).join(' '), exit: res.code, signal: res.signal });
      if (res.code !== 0) log(`rebench: ${exp.name}: extra gems could not be installed (prepare-gems.log); those servers are marked NOT-INSTALLED`);
    }
    const bs = batches(plan);
    for (const [i, batch] of bs.entries()) {
      if (interrupted) break;
      const planFile = path.join(work, `plan-${i + 1}.tsv`);
      fs.writeFileSync(planFile, batch.entries.map((e) => [e.idx, e.cell, e.run, e.measurements.join(',') || '-', rawName(e)].join('\t')).join('\n') + '\n');
      const rel = (p) => path.relative(REPO_ROOT, p);
      let cmd;
      let args;
      const timeoutS = Math.ceil(batch.entries.reduce((t, e) => t + cellTimeoutS(size.timeoutPerCellS, Math.max(1, e.measurements.length) * (openLoop ? 1 + FRACTIONS.length : 1), params, { quick }), 0) + (size.setupS || 60) + calibrationS(PROTOCOL, params));
      if (batch.place === 'host') {
        cmd = 'bash';
        args = [path.join(REPO_ROOT, DRIVER), exp.name, work, planFile];
      } else {
        const ruby = batch.place.split(':')[1];
        cmd = opts.labBin || path.join(REPO_ROOT, 'scripts/lab');
        // exp.services: the experiment starts Redis or Memcached, from the lab's services layer.
        args = ['run', '--ruby', ruby, ...(exp.services ? ['--services'] : []), '--timeout', String(timeoutS), '--', 'bash', `/repo/${DRIVER}`, exp.name, `/repo/${rel(work)}`, `/repo/${rel(planFile)}`];
      }
      log(`rebench: ${exp.name}: batch ${i + 1}/${bs.length} (${batch.place}, ${batch.entries.length} cell run(s))`);
      const t0 = Date.now();
      const res = await runCommand(cmd, args, { timeoutMs: (timeoutS + 30) * 1000, logFile: path.join(raw, 'driver.log') });
      invocations.push({ place: batch.place, command: [cmd, ...args].map((a) => a.replace(REPO_ROOT, '<repo>')).join(' '), exit: res.code, signal: res.signal, seconds: Math.round((Date.now() - t0) / 100) / 10 });
      if (res.code !== 0) log(`rebench: ${exp.name}: batch ${i + 1} exited with ${res.code ?? res.signal}; see driver.log (its cells are recorded as failed)`);
    }
    if (interrupted) return { interrupted };
    const loadAfter = loadAverage();
    const finished = new Date();
    const results = readResults(plan, cells, raw, params);
    const context = {
      exp, quick, runs, seed, plan, cells, results, machine, started, finished, subset: opts.cells ? cells.map((c) => c.id) : null,
      load: { before: loadBefore, after: loadAfter }, invocations, params, raw,
      versions: readVersions(raw),
    };
    const datasets = exp.datasets(context).map((ds) => (opts.tag ? retag(ds, tagged) : ds));
    // Raw outputs: everything the driver wrote, into every dataset's raw directory.
    const written = [];
    for (const ds of datasets) {
      const stage = stages[ds.id];
      if (!stage) throw new Error(`experiment ${exp.name} produced dataset ${ds.id}, which it did not declare`);
      copyDir(raw, stage);
      fs.writeFileSync(path.join(stage, 'provenance.json'), `${JSON.stringify(provenance(context), null, 2)}\n`);
      fs.writeFileSync(path.join(stage, 'runs.csv'), runsCsv(results));
    }
    for (const ds of datasets) {
      written.push(commitDataset(outDir, ds, stages[ds.id], { beforeRename: opts.beforeCommit }));
      delete stages[ds.id];
    }
    return written;
  } finally {
    onInterrupt(null);
    for (const d of Object.values(stages)) discardStage(d);
    if (!opts.keepWork || interrupted) fs.rmSync(work, { recursive: true, force: true });
  }
}

function retag(ds, tagged) {
  const json = JSON.stringify(ds).replace(/rebench-2026-[a-z0-9-]+/g, (id) => (ds.related || []).includes(id) || id === ds.id ? tagged(id) : id);
  return JSON.parse(json);
}

function copyDir(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const name of fs.readdirSync(from)) {
    const src = path.join(from, name);
    if (fs.statSync(src).isDirectory()) copyDir(src, path.join(to, name));
    else fs.copyFileSync(src, path.join(to, name));
  }
}

/** versions-<place>.txt files: "name<TAB>version" lines written by the driver, per place. */
export function readVersions(raw) {
  const out = {};
  for (const f of fs.readdirSync(raw).filter((n) => /^versions-.*\.txt$/.test(n))) {
    const place = f.replace(/^versions-|\.txt$/g, '');
    out[place] = fs.readFileSync(path.join(raw, f), 'utf8').trim().split('\n').filter((l) => l.includes('\t')).map((l) => {
      const [name, ...rest] = l.split('\t');
      return { name: name.trim(), version: rest.join(' ').trim() || 'not found' };
    });
  }
  return out;
}

function provenance(ctx) {
  return {
    tool: 'scripts/rebench',
    experiment: ctx.exp.name,
    quick: ctx.quick,
    subset: ctx.subset || null,
    runs_per_cell: ctx.runs,
    seed: ctx.seed,
    started: ctx.started.toISOString(),
    finished: ctx.finished.toISOString(),
    machine: ctx.machine,
    load_average: ctx.load,
    parameters: ctx.params,
    versions: ctx.versions,
    invocations: ctx.invocations,
    order: ctx.plan.map((e) => ({ idx: e.idx, cell: e.cell, run: e.run, place: e.place, measurements: e.measurements })),
  };
}
