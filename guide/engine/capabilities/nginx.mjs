// nginx directive/variable availability (nginx.org documentation; versions in parentheses there).
// Each entry is a list of ranges: any matching range means the feature exists.
export const NGINX = {
  workerProcessesAuto: [{ since: '1.3.8' }, { since: '1.2.5', until: '1.3' }],
  msecVariable: [{ since: '1.3.9' }, { since: '1.2.6', until: '1.3' }],
  upstreamKeepalive: [{ since: '1.1.4' }],
  proxyHttpVersion: [{ since: '1.1.4' }],
  keepaliveByDefault: [{ since: '1.29.7' }], // upstream keepalive on and proxy_http_version 1.1 by default
  workerShutdownTimeout: [{ since: '1.11.11' }], // old workers of a reload are stopped after it (WebSockets keep them)
  upstreamMaxConns: [{ since: '1.11.5' }], // server … max_conns= in open-source nginx (with `zone`: for all workers)
  realipRemoteAddr: [{ since: '1.9.7' }], // $realip_remote_addr: the connection's own address after real_ip rewrote it
};

// The main nginx.conf each family's package ships loads the dynamic modules (libnginx-mod-*, nginx-mod-*) through
// this include; a generated nginx.conf that replaces it must keep the line, or installed modules are silently not
// loaded (Debian's /etc/nginx/nginx.conf, also written by nginxconfig.io; Fedora/RHEL's and Alpine's nginx.conf).
export const NGINX_MODULES_INCLUDE = {
  debian: '/etc/nginx/modules-enabled/*.conf',
  rhel: '/usr/share/nginx/modules/*.conf',
  alpine: '/etc/nginx/modules/*.conf',
};
