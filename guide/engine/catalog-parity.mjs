// Words for the settings the parity tables (_data/parity/*.json, issue 24) brought into the generated edges, where
// nginxconfig.io or Mozilla's generator was right and the bundle was not. Spread into CATALOG (catalog.mjs).
export const PARITY_CATALOG = {
  "edge.forwarded": "The client's own Forwarded header (RFC 7239) is dropped: Rack reads it before X-Forwarded-For and X-Forwarded-Proto (Rack::Request.forwarded_priority), so a forged one would set request.ip, which rate limits use, and the scheme Rails sees.",
  "nginx.listen.ipv6": "The same port on IPv6: on Linux a plain `listen` port is IPv4 only, so clients that reach the host over IPv6 (an AAAA record) would get no answer (as Mozilla's generator and nginxconfig.io write).",
  "nginx.modules": "Load the dynamic modules the distribution's packages install (the include of the package's own nginx.conf, which this file replaces).",
  "nginx.gzip-vary": "Vary: Accept-Encoding on compressed responses, so a shared cache or CDN never hands a gzip body to a client that did not ask for one.",
  "nginx.gzip-proxied": "Compress responses to requests that came through another proxy or CDN (they carry Via), which nginx otherwise sends uncompressed; level 6 as nginxconfig.io.",
  "ev.nginxGzip": "nginx gzip module",
  "url.nginxGzip": "https://nginx.org/en/docs/http/ngx_http_gzip_module.html",
  "ev.rackRequest": "Rack::Request: Forwarded before X-Forwarded-* (forwarded_priority)",
  "url.rackRequest": "https://github.com/rack/rack/blob/main/lib/rack/request.rb",
};
