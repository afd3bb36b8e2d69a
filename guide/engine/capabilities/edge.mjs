// Edge facts: HTTPS, HTTP/2, TLS settings and WebSocket support per proxy and version (config-facts §5; sources
// in the catalog's url.* entries). since inclusive, until exclusive. Read through caps.mjs ("cap.*" in the catalog).

export const NGINX_TLS = {
  http2Module: { since: '1.9.5' }, // ngx_http_v2_module replaced SPDY in 1.9.5
  http2Directive: { since: '1.25.1' }, // `http2 on;`; the `listen … http2` parameter is deprecated from 1.25.1
  tls13: { since: '1.13.0' }, // TLSv1.3 parameter of ssl_protocols
  sslProtocolsDefaultModern: { since: '1.23.4' }, // default "TLSv1.2 TLSv1.3" (TLSv1/1.1 dropped)
  // `ssl_session_tickets off` only where nginx kept one ticket key for the server's lifetime: since 1.23.2 the keys
  // of a shared ssl_session_cache are rotated, and Mozilla's generator stops emitting the line (its nginx helper).
  sslSessionTickets: { since: '1.5.9', until: '1.23.2' },
  websocketProxy: { since: '1.3.13' }, // Upgrade/Connection hop-by-hop headers passed on request
};

export const APACHE_TLS = {
  http2: { since: '2.4.17' }, // mod_http2 and `Protocols h2 http/1.1`
  tls13: { since: '2.4.36' }, // with OpenSSL 1.1.1
  sessionTickets: { since: '2.4.11' },
  proxyWstunnel: { since: '2.4.5' }, // mod_proxy_wstunnel
  upgradeWebsocket: { since: '2.4.47' }, // ProxyPass … upgrade=websocket in mod_proxy_http
  unixSocketProxy: { since: '2.4.7' },
};

export const CADDY_EDGE = {
  automaticHttps: { since: '2.0' }, // a site address with a host name turns on ACME, HTTP→HTTPS redirects and HTTP/2+3
  trustedProxies: { since: '2.5' }, // reverse_proxy trusts X-Forwarded-* only from trusted_proxies
};

// Mozilla Server Side TLS guideline 5.7 (ssl-config.mozilla.org): "intermediate" for general-purpose servers.
export const MOZILLA = {
  version: '5.7',
  intermediateProtocols: ['TLSv1.2', 'TLSv1.3'],
  intermediateCiphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305',
  intermediateCiphersuites: 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256', // TLS 1.3 (OpenSSL names)
  sessionTimeout: '1d',
  hstsMaxAge: 63072000, // two years
};


// Debian's /etc/haproxy/haproxy.cfg global section (package haproxy, Debian 12/13): the balancer drops root after
// binding, runs chrooted in an empty directory, and offers the runtime API on a socket the haproxy group may use.
// /run/haproxy is made by the package's tmpfiles.d entry at boot. A generated file keeps all of it.
export const HAPROXY_DEBIAN = {
  user: 'haproxy',
  group: 'haproxy',
  chroot: '/var/lib/haproxy',
  runDir: '/run/haproxy',
  statsSocket: ['/run/haproxy/admin.sock', 'mode', '660', 'level', 'admin'],
  statsTimeout: '30s',
  // Where lb-rotation.sh keeps the servers' states (`show servers state`) and every reload reads them back
  // (server-state-file, load-server-state-from-file): a drain survives a reload (SRE check 4, D13).
  stateFile: '/var/lib/haproxy/server-state',
};

// What every edge (balancer or app-host proxy) accepts, the same at each hop so the first one refuses what the
// last would (issue 23): one request body limit, and the status for a Host the site does not serve.
export const EDGE_LIMITS = {
  bodyMb: 25, // uploads up to 25 MB (Active Storage direct uploads bypass the proxies; form uploads do not)
  unknownHostStatus: 421, // Misdirected Request (RFC 9110 §15.5.20); nginx closes instead (444) where it can
  websocketsPerHost: 1000, // open /cable connections per app host (each a socket, not a Puma thread: Action Cable hijacks it)
};

// The request timeout chain, browser → balancer → app host's proxy → app server (issue 23), in seconds. Each hop
// waits longer than the hop behind it (by marginS), so the innermost one gives up first: the app server's own
// timeout, or the app host's proxy answering 504 where the slow request ran. A balancer then never times out
// itself, which nginx counts against the host (a timeout always counts towards max_fails, listed in
// proxy_next_upstream or not: ngx_http_upstream_module, "max_fails") so that one URL slower than the proxy's wait
// took every host out; HAProxy would answer its own 504 without saying which host was slow.
// generators/timeouts.mjs derives every file's value from this table; tests/wizard/timeout-chain.test.mjs checks
// the order over every proxy.
export const TIMEOUT_CHAIN = {
  serverOwnS: { unicorn: 30, pitchfork: 30 }, // the app servers with a request timeout of their own (`timeout 30`)
  edgeReadS: 60, // the app host's proxy waits this long for an answer (nginx's and Apache's 60 s default)
  marginS: 30, // each hop outwards waits this much longer than the hop behind it
  connectS: 5, // balancer → app host connect: a host that does not accept within 5 s is down (retried elsewhere)
  clientIdleS: 10, // browser ↔ balancer keep-alive idle time (nginxconfig.io's and HAProxy's example value)
  clientHeaderS: 10, // HAProxy: the whole request head must arrive within this (slowloris)
  queueS: 30, // HAProxy: a request waits this long for a free app-host slot, then 503
  // The /up checks of README and deploy.sh (SRE check 4, D10): curl retries for up to upDeadlineS (a boot on a small,
  // busy host took 10–20 s in the lab), each try bounded by upTryS, so a check ends within upDeadlineS + upTryS
  // whatever the app does. Servers whose start returns before the app loads set their own (process rows' bootWait).
  upDeadlineS: 60,
  upTryS: 10,
};
