// The timeout chain and the forwarded headers of every edge (issue 23), engine-only, read from the generated files as
// an SRE would: the app server's own request timeout (where it has one) < the app host's proxy's wait < the
// balancer's wait < the nginx balancer's worker_shutdown_timeout, for every proxy that can sit on an app host (nginx,
// Apache, Caddy), every server with or without its own timeout, and both balancers; only a failed connection counts
// against a host on the nginx balancer; /cable has its own budget on both balancers; every edge drops the client's
// X-Forwarded-Ssl and X-Forwarded-Scheme, and the app host takes X-Forwarded-Proto/-Port from the balancer only.
// tests/wizard/faults-balancers.test.mjs proves the chain and the header trust in the lab; tests/wizard/sweep.test.mjs
// runs the files through nginx -t, haproxy -c, apache2 -t and caddy validate.
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { generate } from '../../guide/engine/index.mjs';
import { EDGE_LIMITS } from '../../guide/engine/capabilities/edge.mjs';
import * as V from './validators.mjs';

after(V.cleanup);

const gen = (a) => generate(a, { date: '2026-11-26' });
const content = (r, path) => r.files.find((f) => f.path === path)?.content;
// Every value of a directive (seconds); comments stripped so an explanation never counts as a setting.
const all = (text, re) => [...text.replace(/^\s*#.*$/gm, '').matchAll(re)].map((m) => Number(m[1]));
// The block that starts with START, up to its closing brace (indented by INDENT: 4 inside http {}, 0 at the top).
const block = (text, start, indent = '    ') => {
  const i = text.indexOf(start);
  assert.ok(i >= 0, `${start} in the file`);
  return text.slice(i, text.indexOf(`\n${indent}}`, i));
};

const PROXY_VERSION = { nginx: '1.26', apache: '2.4.65', caddy: '2.6' };
const BASE = { app_hosts: 2, app_addresses: '10.0.0.11,10.0.0.12', lb_address: '10.0.0.2', domain: 'shop.example', websockets: true };

/** The app host proxy's wait in seconds (every proxied location, so a location that waits less is found). */
function edgeWaits(r, proxy) {
  if (proxy === 'nginx') {
    const site = content(r, 'etc/nginx/sites-enabled/rails-app.conf');
    return all(block(site, 'location @rails'), /proxy_read_timeout (\d+)s;/g);
  }
  if (proxy === 'apache') return all(content(r, 'etc/apache2/sites-available/rails-app.conf'), /^\s*ProxyTimeout (\d+)$/gm);
  return all(content(r, 'etc/caddy/Caddyfile'), /^\s*response_header_timeout (\d+)s$/gm);
}

/** The balancer's waits for an app host (all of them must be longer than the app host's). */
function balancerWaits(r, lb) {
  if (lb === 'haproxy') return all(content(r, 'lb-host/etc/haproxy/haproxy.cfg'), /^\s*timeout (?:server|client) (\d+)s$/gm);
  const cfg = content(r, 'lb-host/etc/nginx/nginx.conf');
  return all(cfg, /^\s*proxy_(?:read|send)_timeout (\d+)s;$/gm);
}

test('timeout chain: app server < app host proxy < balancer < nginx balancer shutdown, for every proxy, server and balancer', () => {
  let checked = 0;
  for (const proxy of ['nginx', 'apache', 'caddy']) {
    for (const server of ['puma', 'unicorn', 'pitchfork']) {
      for (const lb of ['haproxy', 'nginx']) {
        const a = { ...BASE, proxy, proxy_version: PROXY_VERSION[proxy], server, lb };
        const label = JSON.stringify({ proxy, server, lb });
        const r = gen(a);
        const own = server === 'puma' ? [] : all(content(r, `config/${server}.rb`), /^timeout (\d+)$/gm);
        assert.equal(own.length, server === 'puma' ? 0 : 1, `${label}: the server's own timeout`);
        const edge = edgeWaits(r, proxy);
        const lbWaits = balancerWaits(r, lb);
        assert.ok(edge.length >= 1 && lbWaits.length >= 2, `${label}: ${edge} ${lbWaits}`);
        // Strictly longer at each hop outwards, by at least 10 s (the time a request spends between the hops' clocks).
        for (const e of edge) for (const s of own) assert.ok(e >= s + 10, `${label}: the proxy (${e} s) outlasts ${server}'s own ${s} s`);
        for (const w of lbWaits) for (const e of edge) assert.ok(w >= e + 10, `${label}: the balancer (${w} s) outlasts the app host's proxy (${e} s)`);
        if (lb === 'nginx') {
          const cfg = content(r, 'lb-host/etc/nginx/nginx.conf');
          const [shutdown] = all(cfg, /^worker_shutdown_timeout (\d+)s;$/gm);
          for (const w of lbWaits) assert.ok(shutdown > w, `${label}: a reload lets requests the chain allows finish (${shutdown} s > ${w} s)`);
        }
        checked++;
      }
    }
  }
  assert.equal(checked, 18);
});

test('nginx balancer: only failed connections move a request or count against a host; /cable has its own capped upstream', () => {
  for (const websockets of [true, false]) {
    const cfg = content(gen({ ...BASE, lb: 'nginx', websockets }), 'lb-host/etc/nginx/nginx.conf');
    const next = [...cfg.matchAll(/^\s*proxy_next_upstream (.*);$/gm)].map((m) => m[1]);
    assert.ok(next.length >= 1 && next.every((v) => v === 'error'), `proxy_next_upstream lists only error: ${next}`);
    assert.doesNotMatch(cfg.replace(/^\s*#.*$/gm, ''), /non_idempotent/);
    if (!websockets) {
      assert.doesNotMatch(cfg, /rails_cable|location \/cable/);
      continue;
    }
    const upstream = block(cfg, 'upstream rails_cable');
    assert.match(upstream, /^\s*zone rails_cable \S+;$/m, 'max_conns counts for all workers only with a shared zone');
    const caps = all(upstream, /max_conns=(\d+)/g);
    assert.deepEqual(caps, [EDGE_LIMITS.websocketsPerHost, EDGE_LIMITS.websocketsPerHost], 'a cap per app host');
    assert.match(block(cfg, 'location /cable', '        '), /^\s*proxy_pass http:\/\/rails_cable;$/m);
    assert.doesNotMatch(block(cfg, 'upstream rails_hosts'), /max_conns/, 'plain HTTP is not capped by the WebSockets');
    // The same per-host WebSocket budget as HAProxy's rails_cable backend.
    const haproxy = content(gen({ ...BASE, lb: 'haproxy' }), 'lb-host/etc/haproxy/haproxy.cfg');
    const [hcap] = all(haproxy.slice(haproxy.indexOf('backend rails_cable')), /^\s*default-server maxconn (\d+)$/gm);
    assert.equal(hcap, caps[0]);
  }
});

test('forwarded headers: every edge drops X-Forwarded-Ssl/-Scheme; the app host trusts X-Forwarded-Proto/-Port from the balancer only', () => {
  const cleared = (text, re) => ['X-Forwarded-Ssl', 'X-Forwarded-Scheme'].every((h) => re(h).test(text));
  const nginxLb = gen({ ...BASE, lb: 'nginx' });
  const lbCfg = content(nginxLb, 'lb-host/etc/nginx/nginx.conf');
  const tlsServer = lbCfg.slice(lbCfg.indexOf('listen 443 ssl;')); // the port 80 server only redirects
  for (const loc of ['location / {', 'location /cable']) assert.ok(cleared(block(tlsServer, loc, '        '), (h) => new RegExp(`^\\s*proxy_set_header ${h} "";$`, 'm')), `nginx balancer ${loc}`);
  assert.ok(cleared(content(gen({ ...BASE, lb: 'haproxy' }), 'lb-host/etc/haproxy/haproxy.cfg'), (h) => new RegExp(`^\\s*http-request del-header ${h}$`, 'm')), 'HAProxy');
  // The app host's nginx, behind a balancer and alone: every proxied location.
  for (const a of [{ ...BASE, lb: 'nginx' }, { domain: 'shop.example' }]) {
    const site = content(gen(a), 'etc/nginx/sites-enabled/rails-app.conf');
    const locations = site.split(/\n\s*location /).slice(1).filter((l) => /proxy_pass/.test(l.split('\n    }')[0]));
    assert.ok(locations.length >= 3, JSON.stringify(a));
    for (const l of locations) assert.ok(cleared(l.split('\n    }')[0], (h) => new RegExp(`^\\s*proxy_set_header ${h} "";$`, 'm')), `${JSON.stringify(a)}: location ${l.split('\n')[0]}`);
  }
  const site = content(nginxLb, 'etc/nginx/sites-enabled/rails-app.conf');
  // Trust: the connection's own address (before real_ip) decides; only the balancer and loopback count.
  assert.match(site, /^geo \$realip_remote_addr \$from_balancer \{\n\s+default 0;\n\s+10\.0\.0\.2 1;/m);
  assert.deepEqual([...block(site, 'geo $realip_remote_addr', '').replace(/^\s*#.*$/gm, '').matchAll(/^\s+(\S+) (\d);$/gm)].map((m) => `${m[1]} ${m[2]}`), ['default 0', '10.0.0.2 1', '127.0.0.1 1', '::1 1']);
  const proto = block(site, 'map $from_balancer:$http_x_forwarded_proto $forwarded_proto', '');
  assert.match(proto, /^\s*default \$scheme;$/m, 'anyone else gets this host\'s own scheme');
  assert.deepEqual([...proto.matchAll(/^\s*(1:\S+) (\S+);$/gm)].map((m) => `${m[1]} ${m[2]}`), ['1:https https', '1:http http'], 'only http or https from the balancer');
  assert.match(block(site, 'map $from_balancer:$http_x_forwarded_port $forwarded_port', ''), /^\s*default \$server_port;$/m);
  // Apache: the headers from other addresses removed; Caddy: the balancer's address only, its port header dropped.
  const apache = content(gen({ ...BASE, lb: 'haproxy', proxy: 'apache', proxy_version: '2.4.65' }), 'etc/apache2/sites-available/rails-app.conf');
  for (const h of ['X-Forwarded-Proto', 'X-Forwarded-Port']) assert.match(apache, new RegExp(`^\\s*RequestHeader unset ${h} "expr=%\\{CONN_REMOTE_ADDR\\} != '10\\.0\\.0\\.2' && %\\{CONN_REMOTE_ADDR\\} != '127\\.0\\.0\\.1'"$`, 'm'));
  assert.ok(cleared(apache, (h) => new RegExp(`^\\s*RequestHeader unset ${h} early$`, 'm')), 'Apache');
  const caddy = content(gen({ ...BASE, lb: 'haproxy', proxy: 'caddy', proxy_version: '2.6' }), 'etc/caddy/Caddyfile');
  assert.match(caddy, /^\s*trusted_proxies 10\.0\.0\.2$/m);
  assert.doesNotMatch(caddy, /private_ranges/);
  assert.ok(cleared(caddy, (h) => new RegExp(`^\\s*header_up -${h}$`, 'm')) && /^\s*header_up -X-Forwarded-Port$/m.test(caddy), 'Caddy');
});

// The sweep's matrix varies one answer at a time, so Apache and Caddy never sit behind a balancer there: their
// files with the balancer-only lines (conditional RequestHeader, trusted_proxies ADDR) go through the real validators here.
test('apache2 -t, caddy validate and nginx -t accept the app-host files behind a balancer', () => {
  const apache = gen({ ...BASE, lb: 'haproxy', proxy: 'apache', proxy_version: PROXY_VERSION.apache }).files.find((f) => f.path === 'etc/apache2/sites-available/rails-app.conf');
  V.apacheTest(apache.content, apache.meta.modules);
  V.caddyValidate(content(gen({ ...BASE, lb: 'haproxy', proxy: 'caddy', proxy_version: PROXY_VERSION.caddy }), 'etc/caddy/Caddyfile'));
  const r = gen({ ...BASE, lb: 'nginx' });
  V.nginxTest(content(r, 'etc/nginx/nginx.conf'), content(r, 'etc/nginx/sites-enabled/rails-app.conf'));
  V.nginxLbTest(content(r, 'lb-host/etc/nginx/nginx.conf'));
});
