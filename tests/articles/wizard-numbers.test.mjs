// The sizing article explains the wizard's arithmetic ("What the wizard computes") and the application
// servers article shows a puma.rb; both state numbers that live in guide/engine. This test derives the
// same configurations with the engine and checks that the prose still states what the engine computes,
// so a change to derive.mjs or the capability tables fails here until the articles are updated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../guide/engine/index.mjs'; // installs the catalog the capability tables read
import { derive, modelOf } from '../../guide/engine/derive.mjs';
import { parseAnswers } from '../../guide/engine/answers.mjs';
import { loadPosts, sections } from './lib.mjs';

const BASE = 'server=puma&proxy=nginx&database=postgresql&ruby=cruby&rails=8.1';

const posts = new Map(loadPosts().map((p) => [p.slug, p]));

/** Derive a configuration; `query` overrides BASE key by key. */
function engine(query) {
  const params = new URLSearchParams(BASE);
  for (const [k, v] of new URLSearchParams(query)) params.set(k, v);
  const { answers, notes } = parseAnswers(params.toString());
  assert.deepEqual(notes, [], `the engine rejected part of ${query}`);
  const ctx = derive(answers);
  return { ctx, model: modelOf(ctx) };
}

/** Text of one level-2 section of a post, with Markdown emphasis removed. */
function section(slug, title) {
  const p = posts.get(slug);
  assert.ok(p, `no post with slug ${slug}`);
  const s = sections(p.body).find((x) => x.title === title);
  assert.ok(s, `${p.file}: no "## ${title}" section`);
  return s.text.replace(/\*\*/g, '');
}

const memOf = (model, kind) => model.memory.filter((m) => m.kind === kind).reduce((s, m) => s + m.mb, 0);

test('sizing article: threads per worker match the engine for each workload and Rails version', () => {
  const text = section('sizing-a-deployment', 'What the wizard computes');
  const t = (q) => engine(`cores=4&ram_gb=16&ruby_version=3.4&${q}`).model.threads;
  const mixed = t('workload=mixed');
  const old = t('workload=mixed&rails=7.1');
  assert.ok(text.includes(`Rails' generated default, ${mixed} from Rails 7.2 and ${old} before`), `state "${mixed} from Rails 7.2 and ${old} before"`);
  assert.ok(text.includes(`${t('workload=io')} when you say the app is I/O-bound, ${t('workload=cpu')} when it is CPU-bound`), 'I/O-bound and CPU-bound thread counts');
});

test('sizing article: memory per worker, YJIT share and fixed items match the engine', () => {
  const text = section('sizing-a-deployment', 'What the wizard computes');
  // A Ruby built with YJIT (rbenv); Debian's own 3.3/3.4 under /usr/bin has none, which the article says too.
  const rbenv = 'ruby_path=%2Fhome%2Fdeploy%2F.rbenv%2Fversions%2F3.4.7%2Fbin';
  const r34 = engine(`cores=2&ram_gb=64&ruby_version=3.4&${rbenv}`);
  const r33 = engine(`cores=2&ram_gb=64&ruby_version=3.3.5&${rbenv}`);
  assert.equal(engine('cores=2&ram_gb=64&ruby_version=3.4&ruby_path=%2Fusr%2Fbin').ctx.yjitMbPerProcess, 0);
  assert.ok(text.includes("Debian's own Ruby 3.3 and 3.4 packages are built without YJIT"), 'the Debian case is stated');
  assert.ok(text.includes(`One copy of the app = ${r34.ctx.perWorkerMb} MB unless you enter your measured figure`), `one copy of the app ${r34.ctx.perWorkerMb} MB`);
  assert.ok(text.includes(`${r34.ctx.yjitMbPerProcess} MB on Ruby 3.4`), `YJIT ${r34.ctx.yjitMbPerProcess} MB on Ruby 3.4`);
  assert.ok(text.includes(`${r33.ctx.yjitMbPerProcess} MB (48 × 3.5) on Ruby 3.3`), `YJIT ${r33.ctx.yjitMbPerProcess} MB on Ruby 3.3`);
  assert.ok(text.includes(`${memOf(r34.model, 'os')} MB for the operating system`), 'OS memory');
  assert.ok(text.includes(`${memOf(r34.model, 'proxy')} MB for nginx or Caddy`), 'nginx memory');
  const apache = engine(`proxy=apache&cores=2&ram_gb=64&ruby_version=3.4`);
  assert.ok(text.includes(`(${memOf(apache.model, 'proxy')} MB for Apache`), 'Apache memory');
  const thruster = engine(`proxy=thruster&cores=2&ram_gb=64&ruby_version=3.4`);
  assert.ok(text.includes(`${memOf(thruster.model, 'proxy')} MB for Thruster or kamal-proxy`), 'Thruster memory');
  assert.equal(memOf(r34.model, 'master'), r34.ctx.perWorkerMb, 'the article says the master holds one copy of the app');
  const pct = r34.ctx.forkSharing.privatePct;
  assert.equal(memOf(r34.model, 'workers'), r34.model.processes * Math.round((r34.ctx.perWorkerMb * pct) / 100));
  assert.ok(text.includes(`${pct} % of it per worker (${Math.round((r34.ctx.perWorkerMb * pct) / 100)} MB at the default)`), `state the ${pct} % worker share`);
  // The default answers' budget, term by term as the article writes it, and the two workers it fits.
  const d = engine('');
  const terms = d.ctx.memory.filter((m) => m.mb > 0).map((m) => (m.n ? `${m.n} × ${m.each}` : String(m.mb)));
  assert.ok(text.includes(`that is ${terms.join(' + ')} = ${d.model.memory_total_mb} MB: two workers fit`), `state "${terms.join(' + ')} = ${d.model.memory_total_mb} MB"`);
  assert.equal(d.model.processes, 2);
  assert.equal(engine('cores=2&ram_gb=64&ruby_version=3.4&worker_mb=700').ctx.perWorkerMb, 700, 'the article says a measured worker_mb replaces the 512 MB default');
});

test('sizing article: the memory-capped example and the connections per process match the engine', () => {
  const text = section('sizing-a-deployment', 'What the wizard computes');
  const capped = engine(`cores=8&ram_gb=4&ruby_version=3.4&db_host=separate`);
  assert.ok(capped.ctx.memoryLimited, 'the example must be memory-limited');
  assert.ok(text.includes(`gets ${capped.model.processes} workers, not 8`), `state "gets ${capped.model.processes} workers, not 8"`);
  const web = engine(`cores=8&ram_gb=16&ruby_version=3.4`);
  assert.ok(text.includes(`with ${web.model.threads} threads may hold up to ${web.ctx.webConnectionsPerProcess} connections`), `state ${web.ctx.webConnectionsPerProcess} connections per web process`);
});

test("application servers article: the puma.rb sample's thread fallback is the wizard's Rails 8.1 default", () => {
  const p = posts.get('app-servers');
  const m = /Integer\(ENV\.fetch\("RAILS_MAX_THREADS", (\d+)\)\)/.exec(p.body);
  assert.ok(m, `${p.file}: the puma.rb sample reads RAILS_MAX_THREADS with a fallback`);
  const { model } = engine(`cores=8&ram_gb=16&ruby_version=3.4&workload=mixed`);
  assert.equal(Number(m[1]), model.threads, `${p.file}: puma.rb falls back to ${m[1]} threads, the wizard to ${model.threads}`);
  assert.match(p.body, /WEB_CONCURRENCY", "auto"\)/, `${p.file}: the sample must accept WEB_CONCURRENCY=auto`);
});
