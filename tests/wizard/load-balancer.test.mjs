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
  for (const re of [/^\s*option redispatch 1$/m, /^\s*retry-on conn-failure empty-response 502$/m, /^\s*http-request disable-l7-retry unless METH_GET or METH_HEAD$/m,
    /^\s*http-check send meth GET uri \/up /m, /^\s*default-server check inter 2s fastinter 500ms fall 3 rise 2 observe layer7 error-limit 1 on-error fastinter maxconn/m, /^\s*http-request redirect scheme https code 301 if !\{ ssl_fc \} !acme$/m, /^\s*balance leastconn$/m, /^\s*timeout check 10s$/m, /^\s*bind :::80 v4v6$/m, /^\s*option forwardfor$/m]) assert.match(cfg, re);
  // A 500 (or any answer) from one URL never takes a host out: only connections are observed, and no timeout is retried.
  assert.doesNotMatch(cfg.replace(/^\s*#.*$/gm, ''), /on-error (mark-down|fail-check|sudden-death)|response-timeout|retry-on .*\b(500|503)\b/);
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
  assert.match(lb, /^\s*proxy_next_upstream error;$/m);
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

test('HAProxy keeps Debian\'s hardening, Mozilla TLS and HSTS; WebSockets have their own budget; renewals never stop it', () => {
  const r = gen({ app_hosts: 2, lb: 'haproxy', domain: 'shop.example', websockets: true, rails: '8.1' });
  const cfg = file(r, /haproxy\.cfg$/).content;
  const global = cfg.slice(cfg.indexOf('\nglobal'), cfg.indexOf('\ndefaults'));
  for (const re of [/^\s*user haproxy$/m, /^\s*group haproxy$/m, /^\s*chroot \/var\/lib\/haproxy$/m, /^\s*stats socket \/run\/haproxy\/admin\.sock mode 660 level admin$/m,
    /^\s*ssl-default-bind-ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305$/m,
    /^\s*ssl-default-bind-options .*ssl-min-ver TLSv1\.2/m]) assert.match(global, re);
  assert.match(cfg, /^\s*http-response set-header Strict-Transport-Security max-age=63072000 if \{ ssl_fc \}$/m);
  // /cable goes to a backend whose per-host limit is not the HTTP one, following the HTTP backend's health checks.
  assert.match(cfg, /^\s*use_backend rails_cable if \{ path_beg \/cable \}$/m);
  const cable = cfg.slice(cfg.indexOf('backend rails_cable'));
  assert.match(cable, /^\s*timeout tunnel 1h$/m);
  assert.match(cable, /^\s*default-server maxconn 1000$/m);
  assert.match(cable, /^\s*server app1 \S+:80 track rails_hosts\/app1$/m);
  assert.doesNotMatch(file(gen({ app_hosts: 2, lb: 'haproxy', websockets: false }), /haproxy\.cfg$/).content, /rails_cable/);
  // Compiled assets (served by each host's nginx from disk) never take the app server's per-host request slots
  // (SRE re-review): their own backend, no maxconn, following the HTTP backend's health and drain (track).
  assert.match(cfg, /^\s*use_backend rails_static if \{ path_beg \/assets\/ \}$/m);
  assert.ok(cfg.indexOf('use_backend rails_static') < cfg.indexOf('default_backend rails_hosts'));
  const statics = cfg.slice(cfg.indexOf('\nbackend rails_static'));
  const block = statics.slice(0, statics.indexOf('\nbackend', 1) > 0 ? statics.indexOf('\nbackend', 1) : undefined);
  assert.match(block, /^\s*server app1 \S+:80 track rails_hosts\/app1$/m);
  assert.match(block, /^\s*server app2 \S+:80 track rails_hosts\/app2$/m);
  assert.doesNotMatch(block, /maxconn/);
  // Unknown Host → 421, client X-Forwarded-Host/-Port replaced, bodies over 25 MB → 413 at the first hop.
  assert.match(cfg, /^\s*acl site_host req\.hdr\(host\),lower -m str shop\.example shop\.example:80 shop\.example:443$/m);
  assert.match(cfg, /^\s*http-request deny deny_status 421 unless site_host$/m);
  assert.match(cfg, /^\s*http-request set-header X-Forwarded-Host %\[req\.hdr\(host\)\]$/m);
  assert.match(cfg, /^\s*http-request deny deny_status 413 if \{ req\.hdr_val\(content-length\) gt 26214400 \}$/m);
  // The ACME challenge is forwarded to certbot on loopback; README issues and renews with a deploy hook that reloads.
  assert.match(cfg, /^\s*server certbot 127\.0\.0\.1:8402$/m);
  const readme = file(r, /^README\.md$/).content;
  const step11 = readme.slice(readme.indexOf('### 11.'));
  assert.doesNotMatch(step11, /pre-hook|systemctl stop haproxy/);
  assert.match(step11, /certbot certonly --standalone --http-01-address 127\.0\.0\.1 --http-01-port 8402 -d shop\.example --keep-until-expiring --deploy-hook '.*systemctl reload haproxy'/);
});

test('nginx balancer: body limit as on the app hosts, real upstream keep-alive, default server refusing other names, ACME by webroot', () => {
  const r = gen({ app_hosts: 2, lb: 'nginx', domain: 'shop.example', proxy: 'nginx', proxy_version: '1.26' });
  const lb = file(r, /^lb-host\/etc\/nginx\/nginx\.conf$/).content;
  const site = file(r, /sites-enabled\/rails-app\.conf$/).content;
  const limit = /client_max_body_size (\S+);/.exec(site)[1];
  assert.match(lb, new RegExp(`^\\s*client_max_body_size ${limit};$`, 'm'), 'the same body limit at both hops');
  for (const re of [/^\s*keepalive 32;$/m, /^\s*proxy_http_version 1\.1;$/m, /^\s*proxy_set_header Connection "";$/m, /^\s*proxy_set_header X-Forwarded-Host \$host;$/m,
    /^\s*listen 443 ssl default_server;$/m, /^\s*return 444;$/m, /^\s*root \/var\/www\/letsencrypt;$/m, /^\s*add_header Strict-Transport-Security max-age=63072000 always;$/m]) assert.match(lb, re);
  assert.doesNotMatch(lb, /http_500|http_503/);
  const step11 = file(r, /^README\.md$/).content.split('### 11.')[1];
  assert.doesNotMatch(step11, /pre-hook|systemctl stop|--standalone/);
  // The first issue through the webroot nginx serves (a throw-away certificate until then), once; then the config is loaded.
  assert.match(step11, /^if \[ ! -e \/etc\/letsencrypt\/renewal\/shop\.example\.conf \]; then\n(.*\n)*  certbot certonly --webroot -w \/var\/www\/letsencrypt -d shop\.example --deploy-hook "systemctl reload nginx" \|\| \{ .*; false; \}\n  rm -r \/etc\/letsencrypt\/live\/shop\.example\.selfsigned\nfi\nnginx -t && systemctl reload-or-restart nginx$/m);
});

test('every app-host nginx site refuses unknown Host and overwrites X-Forwarded-Host; Rails allows the domain only', () => {
  for (const a of [{ domain: 'shop.example' }, { domain: 'shop.example', tls: 'none' }, { domain: 'shop.example', app_hosts: 2, lb: 'haproxy' }]) {
    const r = gen(a);
    const site = file(r, /sites-enabled\/rails-app\.conf$/).content;
    const def = site.slice(site.indexOf('default_server') - 40);
    assert.match(def, /^\s*listen 80 default_server;$/m, JSON.stringify(a));
    assert.match(def, /location \/ \{\s*return 444;/);
    assert.match(def, /location = \/up \{[^}]*proxy_set_header Host shop\.example;/, '/up answers a monitor asking by address');
    const xfh = site.match(/proxy_set_header X-Forwarded-Host (\S+);/g) || [];
    assert.ok(xfh.length >= 2 && xfh.every((l) => /\$host;|shop\.example;/.test(l)), xfh.join('\n'));
    assert.match(file(r, /config\/initializers\/allowed_hosts\.rb$/).content, /^Rails\.application\.config\.hosts << "shop\.example"$/m);
    assert.match(file(r, /^README\.md$/).content, /^put config\/initializers\/allowed_hosts\.rb \/var\/www\/app\/current\/config\/initializers\/allowed_hosts\.rb 0644$/m);
  }
  // Apache: a client's X-Forwarded-Host is removed before mod_proxy appends the matched Host.
  assert.match(file(gen({ domain: 'shop.example', proxy: 'apache', proxy_version: '2.4.62' }), /apache2/).content, /^\s*RequestHeader unset X-Forwarded-Host early$/m);
  // Rails before 6.0 has no host authorization: no initializer.
  assert.ok(!gen({ rails: '5.2', ruby_version: '2.6' }).files.some((f) => /allowed_hosts/.test(f.path)));
});
