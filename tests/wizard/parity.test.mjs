// Parity as data (issue 24): _data/parity/{nginx,apache,caddy,haproxy}.json list every directive nginxconfig.io and
// Mozilla's SSL Configuration Generator emit for the wizard's choices (their outputs, rendered with their own code by
// scripts/parity-peers.mjs, are in tests/fixtures/parity/), with ours or a cited reason to differ. The edges the
// engine generates for each table's stated answers must follow it; _data/parity/pgtune.json does the same for PGTune.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generate, parseAnswers } from '../../guide/engine/index.mjs';
import { pgtune } from '../../guide/engine/pgtune.mjs';
import { PARSERS, loadTable, fixture, byRow, rowFor, list, sortedUnique } from '../helpers/parity.mjs';

const PROXIES = ['nginx', 'apache', 'caddy', 'haproxy', 'nginx-lb'];
const STATUSES = new Set(['same', 'differs', 'not-applicable']);
const DATE = '2026-11-25';

function ours(table) {
  const { answers, notes } = parseAnswers(table.answers);
  assert.deepEqual(notes, [], `${table.proxy}: the stated answers are valid`);
  const r = generate(answers, { date: DATE });
  const files = table.files.map((p) => r.files.find((f) => f.path === p));
  files.forEach((f, i) => assert.ok(f, `${table.proxy}: the bundle has ${table.files[i]}`));
  return files.flatMap((f) => PARSERS[table.format](f.content));
}

for (const name of PROXIES) {
  const table = loadTable(name);

  test(`${name}: every directive the peers emit is in the table, with the peer's value as its output has it`, () => {
    assert.ok(table.peers.length >= 1);
    for (const peer of table.peers) {
      const text = fixture(peer.fixture);
      assert.ok(text.includes(peer.repository) && text.includes(peer.commit), `${peer.fixture} names ${peer.repository} at ${peer.commit}`);
      assert.match(peer.licence, /^(MIT|MPL-2\.0)$/);
      const statements = PARSERS[table.format](text);
      assert.ok(statements.length >= 5, `${peer.fixture} parses`);
      const { map, unmatched } = byRow(table.rows, statements);
      assert.deepEqual(unmatched, [], `${peer.id} directives missing from _data/parity/${name}.json`);
      for (const row of table.rows) {
        // Both ways: the table neither drops nor invents a value of the peer.
        assert.deepEqual(list(row[peer.id]).slice().sort(), (map.get(row) || []).slice().sort(), `${name} ${row.directive}: ${peer.id}'s values`);
      }
    }
  });

  test(`${name}: "same" rows are emitted with the peer's value, other rows give a reason and a source`, () => {
    const peerIds = table.peers.map((p) => p.id);
    for (const row of table.rows) {
      const label = `${name} ${row.directive}`;
      assert.ok(STATUSES.has(row.status), `${label}: status ${row.status}`);
      assert.ok(peerIds.some((id) => row[id] !== undefined), `${label}: some peer emits it`);
      if (row.status === 'same') {
        assert.ok(row.ours !== null && row.ours !== undefined, `${label}: same means we emit it`);
        for (const id of peerIds) for (const v of list(row[id])) assert.ok(list(row.ours).includes(v), `${label}: ${id}'s "${v}" is among ours`);
      } else {
        assert.ok(typeof row.reason === 'string' && row.reason.length >= 12, `${label}: a reason`);
        assert.match(row.source, /^https:\/\/\S+$/, `${label}: a primary source`);
      }
    }
  });

  test(`${name}: the generated edge is what the table says ours is`, () => {
    const statements = ours(table);
    const { map } = byRow(table.rows, statements);
    for (const row of table.rows) {
      const label = `${name} ${row.directive}`;
      assert.deepEqual(sortedUnique(list(row.ours)), sortedUnique(map.get(row) || []), `${label}: ours as generated`);
      if (row.instead) assert.ok(statements.some((s) => s === row.instead || s.startsWith(`${row.instead} `)), `${label}: we emit "${row.instead}" instead`);
    }
    // Each row directive is one the parser can produce, so no row is dead text.
    for (const row of table.rows) assert.equal(rowFor(table.rows, row.directive), row, `${name} ${row.directive}: reachable`);
  });
}

// Mozilla's nginx helper writes `ssl_session_tickets off` only from nginx 1.5.9 to 1.23.1 (1.23.2 rotates ticket
// keys); the tables above are for 1.26, so the older side is checked here.
test('ssl_session_tickets off is written for nginx 1.5.9 to 1.23.1 only, as Mozilla writes it', () => {
  const site = (v) => {
    const { answers, notes } = parseAnswers({ proxy_version: v });
    assert.deepEqual(notes, [], `nginx ${v} is a valid answer`);
    return generate(answers, { date: DATE }).files.find((f) => f.path === 'etc/nginx/sites-enabled/rails-app.conf').content;
  };
  for (const [v, written] of [['1.5.8', false], ['1.18', true], ['1.22', true], ['1.23.1', true], ['1.23.2', false], ['1.26', false]]) {
    assert.equal(/^\s*ssl_session_tickets off;$/m.test(site(v)), written, `nginx ${v}`);
  }
});

// ---- PGTune: the engine's settings for the stated host against PGTune's (le0pard/pgtune), setting by setting.
const KB = { MB: 1024, GB: 1048576 };
const fmt = (kb) => (kb % KB.GB === 0 ? `${kb / KB.GB}GB` : kb % KB.MB === 0 ? `${kb / KB.MB}MB` : `${kb}kB`);

test('PGTune: every setting either matches PGTune or gives a reason, and the table is what pgtune.mjs returns', () => {
  const table = loadTable('pgtune');
  const x = table.input;
  const engine = Object.fromEntries(pgtune({ ramKb: x.ram_gb * KB.GB, cores: x.cores, connections: x.connections, storage: x.storage, version: x.version, os: x.os })
    .map((s) => [s.key, s.kind === 'size' ? fmt(s.value) : String(s.value)]));
  const rows = new Map(table.rows.map((r) => [r.setting, r]));
  for (const key of Object.keys(engine)) assert.ok(rows.has(key), `pgtune.mjs writes ${key}: it is in the table`);
  for (const r of table.rows) {
    assert.equal(r.ours ?? undefined, engine[r.setting], `${r.setting}: ours as pgtune.mjs returns it`);
    assert.ok(STATUSES.has(r.status));
    if (r.status === 'same') assert.equal(r.pgtune, r.ours, `${r.setting}: same as PGTune`);
    else {
      assert.ok(r.reason && r.reason.length >= 12, `${r.setting}: a reason`);
      assert.match(r.source, /^https:\/\/\S+$/);
    }
  }
  assert.match(table.peer.commit, /^[0-9a-f]{40}$/);
});
