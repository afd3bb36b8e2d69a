// The small-host YJIT bound the wizard writes into config/ruby.env (RUBYOPT, capabilities/ruby.mjs JIT.yjitMemory)
// does what its comment says on a real Ruby 3.4 with YJIT (the lab's YJIT layer): read the way systemd's
// EnvironmentFile and the README's shell read it, it keeps YJIT off at boot (--yjit-disable), Rails 8.1's
// config.yjit still turns it on in the reference app, and YJIT's own memory accounting stays within the limit
// where the same code without the option takes more. The lab has no Ruby 3.2, 3.3 or 4.0 built with YJIT (Debian
// builds them without it): for those, tests/wizard/yjit-bound.test.mjs checks the emitted options by version.
import test from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { ensureLab, labScript, writeBundle } from '../helpers/lab.mjs';
import { generate } from '../../guide/engine/index.mjs';

test('lab: Ruby 3.4 YJIT honours the small-host RUBYOPT bound; Rails 8.1 still enables YJIT under it', { timeout: 300000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, lab.reason);
  const bundle = generate({ ruby_version: '3.4', rails: '8.1', ram_gb: 2, ruby_path: '/opt/ruby-3.4-yjit/bin', distro: 'debian-13' }, { date: '2026-11-25' });
  const env = bundle.files.find((f) => f.path === 'config/ruby.env').content;
  const m = /^RUBYOPT="--yjit-disable --yjit-mem-size=(\d+)"$/m.exec(env);
  assert.ok(m, `ruby.env bounds YJIT on a 2 GB host:\n${env}`);
  const limitMiB = Number(m[1]);
  const { dir, inLab: B } = writeBundle(bundle, '.wizard-yjit-');
  try {
    const r = await labScript(String.raw`
set -a; . ${B}/config/ruby.env; set +a
echo "rubyopt=$RUBYOPT"
echo "at-boot=$(ruby -e 'print RubyVM::YJIT.enabled?')"
echo "bounded $(RUBYOPT="$RUBYOPT --yjit-call-threshold=1" ruby /repo/tests/lab/yjit-fill.rb)"
echo "default $(RUBYOPT="--yjit-call-threshold=1" ruby /repo/tests/lab/yjit-fill.rb)"
lab-app prepare --db sqlite >&2
eval "$(lab-app env)"
cd /srv/app && echo "rails=$(RAILS_ENV=production bin/rails runner 'print RubyVM::YJIT.enabled?' 2>/dev/null | tail -n 1)"
`, { ruby: '3.4-yjit', timeout: 240 });
    const out = `${r.stdout}\n${r.stderr.slice(-3000)}`;
    assert.equal(r.code, 0, out);
    assert.match(r.stdout, /^at-boot=false$/m, `--yjit-disable keeps YJIT off at boot: ${out}`);
    const bytes = (k) => Number(new RegExp(`^${k} yjit-bytes (\\d+)`, 'm').exec(r.stdout)?.[1]);
    const bounded = bytes('bounded') / 2 ** 20;
    const unbounded = bytes('default') / 2 ** 20;
    assert.ok(bounded > 0 && unbounded > 0, out);
    assert.ok(bounded <= limitMiB * 1.1, `YJIT stayed within ${limitMiB} MiB (+10 %): ${bounded.toFixed(1)} MiB`);
    assert.ok(unbounded > limitMiB * 1.2, `without the option the same code takes more: ${unbounded.toFixed(1)} MiB`);
    assert.match(r.stdout, /^rails=true$/m, `Rails' config.yjit enabled YJIT under the bound: ${out}`);
    console.log(`YJIT memory (code region + metadata) for 40,000 methods: ${bounded.toFixed(1)} MiB with ${m[0].slice(8)}, ${unbounded.toFixed(1)} MiB without`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
