// scripts/bench-ruby-settings against a tiny Rack app under real Puma and wrk:
// two settings x 2 runs, the seeded interleaved order, cleanup on SIGTERM, bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { tool, tmpDir, run, start, loadDataset, col, processesIn, killAll, waitFor } from './util.mjs';

const BRS = tool('bench-ruby-settings');

function fixture(name) {
  const dir = tmpDir(name);
  const app = path.join(dir, `app-${process.pid}-${name}.ru`);
  fs.writeFileSync(app, `run ->(env) { s = Array.new(50) { |i| "x#{i}" }.join; [200, { "content-type" => "text/plain" }, [s]] }\n`);
  return { dir, app };
}

test('two settings x 2 runs: interleaved with a recorded seed, valid dataset, no Puma left', async () => {
  const { dir, app } = fixture('brs');
  const settings = path.join(dir, 'settings.yml');
  fs.writeFileSync(settings, [
    'defaults:',
    '  threads: 2',
    'configurations:',
    '  - name: baseline',
    '  - name: gc-growth-1.1',
    '    env:',
    '      RUBY_GC_HEAP_GROWTH_FACTOR: 1.1',
    '      MALLOC_ARENA_MAX: 2',
    '',
  ].join('\n'));
  const out = path.join(dir, 'out');
  const args = ['--no-validate', '--app', app, '--settings', settings, '--runs', '2', '--duration', '1', '--warmup', '20', '--connections', '2', '--seed', '1234', '--out', out, '--id', 'brs-test'];
  const r = await run(BRS, args, { timeoutMs: 150000 });
  assert.equal(r.code, 0, r.stderr);
  const { data, problems } = loadDataset(r.stdout);
  assert.deepEqual(problems, [], JSON.stringify(problems, null, 2));
  assert.equal(data.method.tool, 'bench-ruby-settings');
  assert.equal(data.method.seed, 1234);
  assert.equal(data.method.runs, 2);
  assert.deepEqual(col(data, 'config'), ['baseline', 'gc-growth-1.1']);
  assert.deepEqual(col(data, 'runs_ok'), [2, 2]);
  for (const v of col(data, 'rps_median')) assert.ok(typeof v === 'number' && v > 0, `throughput ${v}`);
  for (const v of col(data, 'p99_ms')) assert.ok(typeof v === 'number' && v > 0);
  for (const v of col(data, 'rss_peak')) assert.ok(v > 5 * 1024 * 1024, `Puma RSS ${v} B`);
  assert.match(col(data, 'env')[1], /RUBY_GC_HEAP_GROWTH_FACTOR=1\.1/);
  assert.match(col(data, 'env')[1], /MALLOC_ARENA_MAX=2/);
  assert.ok(data.software.some((s) => s.name === 'Puma' && /^\d+\.\d+/.test(s.version)), 'Puma version recorded');
  assert.ok(data.software.some((s) => s.name === 'Ruby' && /ruby \d/.test(s.version)), 'Ruby version recorded');
  // The spread-versus-difference verdict is in the summary and in the caveats.
  assert.match(data.summary, /spread_exceeds_difference=(true|false|unknown)/);
  assert.ok(data.caveats.some((c) => c.startsWith('Spread versus difference:')));
  const spread = col(data, 'rps_spread');
  const medians = col(data, 'rps_median');
  const expected = Math.max(...spread) >= Math.abs(medians[0] - medians[1]);
  assert.match(data.summary, new RegExp(`spread_exceeds_difference=${expected}`), 'flag agrees with the numbers');

  // Interleaved rounds: each configuration once per round; same seed gives the same order.
  const order = data.method.order.split(': ').pop().split(' ');
  assert.equal(order.length, 4);
  assert.deepEqual(order.slice(0, 2).map((s) => s.split('#')[1]), ['1', '1']);
  assert.deepEqual(new Set(order.slice(0, 2).map((s) => s.split('#')[0])), new Set(['baseline', 'gc-growth-1.1']));
  const { analyse } = await import('../../scripts/lib/measure/settings-cli.mjs');
  assert.equal(typeof analyse, 'function');

  const raw = path.join(out, 'raw-output', 'brs-test');
  const csv = fs.readFileSync(path.join(raw, 'runs.csv'), 'utf8').trim().split('\n');
  assert.equal(csv.length, 1 + 4);
  assert.ok(fs.readdirSync(raw).some((f) => f.endsWith('.puma.log')));
  const wrkOut = fs.readdirSync(raw).filter((f) => /run\d\.txt$/.test(f));
  assert.equal(wrkOut.length, 4);
  assert.match(fs.readFileSync(path.join(raw, wrkOut[0]), 'utf8'), /WRK_JSON/);
  assert.equal(r.stderr.match(/req\/s/g).length, 4, 'four runs reported');
  assert.deepEqual(processesIn(dir), [], 'every Puma was stopped');
});

test('a configuration that cannot boot is recorded as FAIL and shown in the chart', async () => {
  const { dir, app } = fixture('brs-fail');
  const settings = path.join(dir, 'settings.yml');
  fs.writeFileSync(settings, 'configurations:\n  - name: fine\n    threads: 1\n  - name: broken\n    env: { RUBYOPT: "-rno_such_library_here" }\n');
  const r = await run(BRS, ['--no-validate', '--app', app, '--settings', settings, '--runs', '1', '--duration', '1', '--warmup', '5', '--out', path.join(dir, 'out'), '--id', 'brs-fail', '--quiet'], { timeoutMs: 120000 });
  assert.equal(r.code, 0, r.stderr);
  const { data, problems } = loadDataset(r.stdout);
  assert.deepEqual(problems, [], JSON.stringify(problems, null, 2));
  assert.deepEqual(data.failures.markers, ['FAIL']);
  const broken = data.rows[col(data, 'config').indexOf('broken')];
  assert.equal(broken[data.columns.findIndex((c) => c.key === 'rps_median')], 'FAIL');
  assert.equal(col(data, 'runs_ok')[0], 1);
  assert.match(JSON.stringify(data.charts[0].spec), /rps_median_failure/);
  assert.match(data.summary, /spread_exceeds_difference=unknown/);
  assert.ok(data.caveats.some((c) => /broken #1 \(FAIL: Puma exited during boot/.test(c)));
  assert.deepEqual(processesIn(dir), []);
});

test('SIGTERM to the runner stops the Puma process group it started', async () => {
  const { dir, app } = fixture('brs-kill');
  const settings = path.join(dir, 'settings.yml');
  fs.writeFileSync(settings, 'configurations:\n  - name: only\n    workers: 1\n    threads: 1\n');
  const child = start(BRS, ['--app', app, '--settings', settings, '--runs', '1', '--duration', '60', '--warmup', '0', '--out', path.join(dir, 'out')]);
  try {
    const up = await waitFor(() => processesIn(dir).filter((p) => /puma/.test(p.cmd)).length >= 2, 60000);
    assert.ok(up, `Puma master and worker should be up: ${child.output}`);
    child.kill('SIGTERM');
    const { code, signal } = await child.done;
    assert.ok(code !== 0 || signal, 'the runner exits non-zero when interrupted');
    const gone = await waitFor(() => processesIn(dir).length === 0, 10000);
    assert.ok(gone, `left running: ${JSON.stringify(processesIn(dir))}`);
  } finally {
    killAll(processesIn(dir));
  }
});

test('wrong invocations and bad settings files exit non-zero with a clear message', async () => {
  const { dir, app } = fixture('brs-bad');
  const write = (name, text) => { const f = path.join(dir, name); fs.writeFileSync(f, text); return f; };
  const good = write('good.yml', 'configurations:\n  - name: a\n');
  const cases = [
    [['--settings', good], /--app FILE.ru is required/],
    [['--app', app], /--settings FILE.yml is required/],
    [['--app', path.join(dir, 'missing.ru'), '--settings', good], /app file not found/],
    [['--app', app, '--settings', path.join(dir, 'missing.yml')], /cannot read settings file/],
    [['--app', app, '--settings', good, '--tool', 'siege'], /--tool must be wrk or ab/],
    [['--app', app, '--settings', good, '--requests', '100', '--tool', 'wrk'], /wrk runs for a duration/],
    [['--app', app, '--settings', good, '--runs', '0'], /--runs must be at least 1/],
    [['--app', app, '--settings', write('dup.yml', 'configurations:\n  - name: a\n  - name: a\n')], /used twice/],
    [['--app', app, '--settings', write('key.yml', 'configurations:\n  - name: a\n    workerz: 2\n')], /unknown key "workerz"/],
    [['--app', app, '--settings', write('empty.yml', 'configurations: []\n')], /non-empty list/],
    [['--app', app, '--settings', write('yaml.yml', 'configurations: [\n')], /not valid YAML/],
    [['--app', app, '--settings', write('env.yml', 'configurations:\n  - name: a\n    env: { PATH: /tmp }\n')], /PATH is set by the runner/],
    [['--app', app, '--settings', write('threads.yml', 'configurations:\n  - name: a\n    threads: 0\n')], /"threads" must be a whole number/],
  ];
  for (const [args, re] of cases) {
    const r = await run(BRS, args, { timeoutMs: 20000 });
    assert.equal(r.code, 2, `${args.join(' ')} → ${r.code}: ${r.stderr}`);
    assert.match(r.stderr, re);
  }
  const help = await run(BRS, ['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /configurations:/);
  assert.deepEqual(processesIn(dir), []);
});
