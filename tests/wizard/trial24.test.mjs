// Blind user trial of issue 24 (non-default stacks: RHEL 9 family, Ubuntu 22.04/24.04, Apache, Caddy, JRuby),
// one test per defect fixed, each on the generated bundle of the stack that showed it. Review:
// /work/notes/trial24-review.md (the defects, their severity and sources).
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const gen = (a) => generate({ domain: 'app.test', ...a }, { date: '2026-11-26' });
const file = (r, p) => r.files.find((f) => f.path === p)?.content ?? assert.fail(`${p} in the bundle (${r.files.map((f) => f.path).join(' ')})`);
const readme = (r) => file(r, 'README.md');
/** The README's shell lines (```sh blocks), comments dropped. */
const shell = (r) => [...readme(r).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1].split('\n')).filter((l) => l && !l.startsWith('#'));
/** Lines of README step N's shell block. */
const step = (r, n) => {
  const m = new RegExp(`^### ${n}\\. [^\\n]*\\n[\\s\\S]*?^\`\`\`sh\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(readme(r));
  return m ? m[1].split('\n').filter(Boolean) : [];
};
const APACHE_SITE = 'etc/apache2/sites-available/rails-app.conf';
const directives = (conf, name) => conf.split('\n').map((l) => l.trim()).filter((l) => l.startsWith(`${name} `));

const RHEL = ['rocky-9', 'almalinux-9', 'rhel-9'];

test('Apache on RHEL logs where httpd can write: no ${APACHE_LOG_DIR} (Debian-only envvars), and README names error_log', () => {
  for (const distro of RHEL) {
    for (const server of ['puma', 'passenger']) {
      const r = gen({ distro, proxy: 'apache', proxy_version: '2.4.62', server, ...(server === 'passenger' ? { server_version: '6.0' } : {}) });
      const site = file(r, APACHE_SITE);
      assert.doesNotMatch(site, /\$\{APACHE_LOG_DIR\}/, `${distro} ${server}: httpd on RHEL defines no APACHE_LOG_DIR`);
      assert.deepEqual(directives(site, 'CustomLog'), ['CustomLog /var/log/httpd/access.log combined env=!dontlog'], `${distro} ${server}`);
      if (server === 'passenger') assert.match(readme(r), /Apache's error log, \/var\/log\/httpd\/error_log;/, `${distro}: httpd.conf's ErrorLog is logs/error_log`);
    }
  }
  // Debian keeps its own variable (its envvars define it) and error.log.
  const deb = gen({ distro: 'debian-13', proxy: 'apache', server: 'passenger', server_version: '6.0' });
  assert.deepEqual(directives(file(deb, APACHE_SITE), 'CustomLog'), ['CustomLog ${APACHE_LOG_DIR}/access.log combined env=!dontlog']);
  assert.match(readme(deb), /Apache's error log, \/var\/log\/apache2\/error\.log;/);
  // FreeBSD's apache24 has no such variable either.
  const bsd = gen({ os: 'freebsd', proxy: 'apache', proxy_version: '2.4.62' });
  assert.deepEqual(directives(file(bsd, APACHE_SITE), 'CustomLog'), ['CustomLog /var/log/httpd-access.log combined env=!dontlog']);
});
