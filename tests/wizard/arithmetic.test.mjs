// Connection arithmetic that adds up, over every bundle of the sweep matrix: each "a × b + c = d" a message shows
// evaluates to d (words between the numbers dropped), the web pool counts Action Cable's worker pool where the
// process serves WebSockets, and every message about the connection budget carries the whole sum.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';
import { derive } from '../../guide/engine/derive.mjs';
import { connectionSum } from '../../guide/engine/arithmetic.mjs';
import { buildMatrix } from './matrix.mjs';
import { evaluate, equations } from '../helpers/arithmetic.mjs';

const DATE = '2026-01-02';
const matrix = buildMatrix();

test('the arithmetic reader reads what it should', () => {
  assert.equal(evaluate('1 host(s) × (2 process(es) × 15 connections + 6 for the job runner)'), 36);
  assert.equal(evaluate('pool 3 thread(s) + 4 Action Cable workers'), 7);
  assert.deepEqual(equations('Connections: 2 host(s) × 3 process(es) × 7 connections = 42; pool 3 thread(s) + 4 Action Cable workers = 7, within 97.').map((e) => e.value), [42, 7]);
});

test('every sum and product a bundle shows adds up; connection messages show the whole sum', () => {
  let checked = 0;
  const wrong = [];
  for (const answers of matrix) {
    const r = generate(answers, { date: DATE });
    const ctx = derive(r.answers);
    const texts = [
      ...r.files.map((f) => [f.path, f.content]),
      ...r.warnings.map((w) => [`warning ${w.id}`, w.message]),
      ...r.advice.map((a) => [`advice ${a.id}`, a.body]),
    ];
    for (const [where, text] of texts) {
      for (const e of equations(text)) {
        const v = evaluate(e.expr);
        if (v === null) continue;
        checked++;
        if (v !== e.value) wrong.push(`${where}: "${e.expr} = ${e.value}" is ${v}`);
      }
    }
    if (r.answers.database === 'sqlite') continue;
    // The budget messages carry connectionSum (hosts, processes, per-process roles, pool terms, job runner).
    const sum = connectionSum(ctx);
    const yml = r.files.find((f) => f.path === 'config/database.yml').content.replace(/\n\s*#\s*/g, ' ');
    assert.ok(yml.includes(sum), `database.yml states the whole sum for ${JSON.stringify(r.answers)}`);
    for (const w of r.warnings.filter((x) => /connections/.test(x.id))) {
      if (['too-many-db-connections', 'max-connections-raised'].includes(w.id)) assert.ok(w.message.includes(sum), `${w.id}: ${w.message}`);
    }
  }
  assert.deepEqual(wrong.slice(0, 10), []);
  assert.ok(checked > matrix.length, `${checked} equations checked over ${matrix.length} bundles`);
  console.log(`${checked} equations over ${matrix.length} bundles add up`);
});

test('the web pool counts Action Cable\'s worker pool; Unicorn\'s is 1 + 4, not RAILS_MAX_THREADS=3', () => {
  const u = generate({ server: 'unicorn', server_version: '6.1', websockets: true, jobs: 'sidekiq' }, { date: DATE });
  const ctx = derive(u.answers);
  assert.equal(ctx.threads, 1);
  assert.equal(ctx.cableWorkers, 4);
  assert.equal(ctx.pool, 5);
  const yml = u.files.find((f) => f.path === 'config/database.yml').content;
  assert.match(yml, /max_connections: <%= ENV\.fetch\("RAILS_MAX_THREADS"\) \{ 1 \}\.to_i \+ 4 %>/);
  const env = u.files.find((f) => f.path === 'config/ruby.env').content;
  assert.doesNotMatch(env, /^RAILS_MAX_THREADS=/m, 'the web processes of Unicorn do not set RAILS_MAX_THREADS');
  // Without WebSockets the pool is the threads alone.
  const plain = derive(generate({ server: 'puma', websockets: false }, { date: DATE }).answers);
  assert.equal(plain.pool, plain.threads);
  const cable = derive(generate({ server: 'puma', websockets: true }, { date: DATE }).answers);
  assert.equal(cable.pool, cable.threads + 4);
});
