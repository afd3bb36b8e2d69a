// Answers that follow other answers (issue 24 user trial): `{"database":"mysql"}` alone used to keep PostgreSQL's
// adapter, so the CLI refused its own default with "The pg adapter does not talk to MySQL" (exit 3). The adapter now
// follows the database and the Ruby (questions.mjs defaultBy) like the version questions follow their choice; an
// adapter the reader names is kept, and a mismatch is still an error. A bundle with error-level findings is never
// written by `--format files` (an operator would deploy it); `--allow-errors` writes it.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generate, parseAnswers, toQuery, validateAnswers } from '../../guide/engine/index.mjs';

const CLI = new URL('../../guide/cli.mjs', import.meta.url).pathname;
const errors = (a) => generate(a, { date: '2026-01-01' }).warnings.filter((w) => w.severity === 'error').map((w) => w.id);

test('the adapter follows the database and the Ruby unless answered', () => {
  for (const [over, adapter] of [[{}, 'pg'], [{ database: 'mysql' }, 'mysql2'], [{ database: 'mariadb' }, 'mysql2'],
    [{ database: 'sqlite' }, 'sqlite3'], [{ ruby: 'jruby', ruby_version: '9.4' }, 'jdbc'], [{ ruby: 'jruby', ruby_version: '9.4', database: 'mysql' }, 'jdbc'],
    [{ database: 'mysql', adapter: 'trilogy' }, 'trilogy']]) {
    assert.equal(parseAnswers(over).answers.adapter, adapter, JSON.stringify(over));
    assert.deepEqual(validateAnswers(over), [], JSON.stringify(over));
    assert.ok(!errors(over).some((id) => /adapter/.test(id)), `${JSON.stringify(over)}: ${errors(over)}`);
  }
  // Named and wrong: still refused with the reason (the reader asked for it).
  assert.ok(errors({ database: 'mysql', adapter: 'pg' }).includes('adapter-database-mismatch'));
  assert.ok(errors({ ruby: 'jruby', ruby_version: '9.4', adapter: 'pg' }).includes('c-extension-adapter-on-jruby'));
  // A following adapter is left out of the shareable link; a chosen one is kept.
  assert.equal(toQuery({ database: 'mysql', adapter: 'mysql2' }), 'database=mysql');
  assert.equal(toQuery({ database: 'mysql', adapter: 'trilogy' }), 'database=mysql&adapter=trilogy');
  assert.equal(parseAnswers(toQuery({ database: 'sqlite' })).answers.adapter, 'sqlite3');
});

test('CLI: {"database":"mysql"} writes a MySQL bundle (exit 0); error-level findings write nothing unless --allow-errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'answer-defaults-'));
  const run = (answers, out, extra = []) => {
    const f = join(dir, `${out}.json`);
    writeFileSync(f, JSON.stringify(answers));
    return spawnSync(process.execPath, [CLI, '--answers', f, '--out', join(dir, out), '--date', '2026-01-01', ...extra], { encoding: 'utf8', timeout: 60000 });
  };
  try {
    const my = run({ database: 'mysql' }, 'mysql');
    assert.equal(my.status, 0, my.stderr);
    assert.match(readFileSync(join(dir, 'mysql', 'config', 'database.yml'), 'utf8'), /^\s+adapter: mysql2$/m);
    // 1 GiB of RAM cannot hold the default plan: exit 3, the findings on stderr, and no directory at all.
    const small = run({ ram_gb: 1 }, 'small');
    assert.equal(small.status, 3, small.stderr);
    assert.match(small.stderr, /error \[memory-over-budget\]/);
    assert.match(small.stderr, /nothing written to .*small: the bundle has error-level findings/);
    assert.equal(existsSync(join(dir, 'small')), false);
    const allowed = run({ ram_gb: 1 }, 'allowed', ['--allow-errors']);
    assert.equal(allowed.status, 0, allowed.stderr);
    assert.ok(existsSync(join(dir, 'allowed', 'README.md')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
