// The load balancer (issue 11): lb-host/ files for lb = haproxy | nginx when there are several app hosts, TLS moved
// to the balancer with an explanation, and the app hosts' proxies trusting its X-Forwarded-For. Engine-only;
// tests/wizard/sweep.test.mjs runs every distinct balancer file through haproxy -c / nginx -t.
import test from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';

const gen = (a) => generate(a, { date: '2026-11-23' });
const file = (r, re) => r.files.find((f) => re.test(f.path));

test('HAProxy: every app host is a checked server; failed connections and stopped hosts are retried elsewhere', () => {
  const r = gen({ app_hosts: 3, lb: 'haproxy', app_addresses: '192.168.7.20', rails: '8.1', ruby_version: '3.4' });
  const cfg = file(r, /^lb-host\/etc\/haproxy\/haproxy\.cfg$/).content;
  assert.deepEqual([...cfg.matchAll(/^\s*server (app\d) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`), ['app1 192.168.7.20:80', 'app2 192.168.7.21:80', 'app3 192.168.7.22:80']);
  for (const re of [/^\s*option redispatch 1$/m, /^\s*retry-on conn-failure empty-response response-timeout 502 503$/m, /^\s*http-request disable-l7-retry unless METH_GET or METH_HEAD$/m,
    /^\s*http-check send meth GET uri \/up /m, /^\s*default-server check .*observe layer7 error-limit 1 on-error mark-down/m, /^\s*http-request redirect scheme https code 301 unless \{ ssl_fc \}$/m, /^\s*balance leastconn$/m, /^\s*bind :::80 v4v6$/m, /^\s*option forwardfor$/m]) assert.match(cfg, re);
  // Per-host limit = what one host works on at once.
  assert.match(cfg, new RegExp(`maxconn ${r.model.processes * r.model.threads}$`, 'm'));
  // Rails before 7.1 has no /up: the check asks for /.
  assert.match(file(gen({ app_hosts: 2, lb: 'haproxy', rails: '7.0', ruby_version: '3.3' }), /haproxy\.cfg$/).content, /uri \/ ver/);
});

test('TLS moves to the balancer (info, not silent); the app hosts trust only its X-Forwarded-For', () => {
  const r = gen({ app_hosts: 2, lb: 'nginx' });
  const w = r.warnings.find((x) => x.id === 'tls-at-load-balancer');
  assert.equal(w?.severity, 'info');
  const lb = file(r, /^lb-host\/etc\/nginx\/nginx\.conf$/).content;
  assert.match(lb, /^\s*listen 443 ssl;$/m);
  assert.match(lb, /^\s*listen \[::\]:443 ssl;$/m);
  assert.match(lb, /^\s*proxy_next_upstream error timeout http_502 http_503;$/m);
  const site = file(r, /sites-enabled\/rails-app\.conf$/).content;
  assert.match(site, /^\s*set_real_ip_from 10\.0\.0\.2;$/m);
  assert.doesNotMatch(site, /listen 443/, 'the app hosts no longer end TLS');
  assert.doesNotMatch(file(gen({ app_hosts: 2, lb: 'nginx', tls: 'none' }), /^lb-host\//).content, /^\s*(listen .*ssl|ssl_certificate)/m);
  // Apache 2.4 behind a balancer: mod_remoteip with the balancer as the only trusted proxy.
  const apache = gen({ app_hosts: 2, lb: 'cloud', lb_address: '10.9.0.2', proxy: 'apache', proxy_version: '2.4.62' });
  assert.match(file(apache, /apache2/).content, /^\s*RemoteIPInternalProxy 10\.9\.0\.2$/m);
  assert.ok(!apache.files.some((f) => f.path.startsWith('lb-host/')), 'a cloud balancer gets no file');
  // One host, or no balancer: nothing changes.
  assert.doesNotMatch(file(gen({}), /sites-enabled/).content, /set_real_ip_from/);
  assert.match(file(gen({ app_hosts: 2, lb: 'none' }), /README\.md$/).content, /no load balancer/i);
});
