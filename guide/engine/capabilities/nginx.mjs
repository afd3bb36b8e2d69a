// nginx directive/variable availability (nginx.org documentation; versions in parentheses there).
// Each entry is a list of ranges: any matching range means the feature exists.
export const NGINX = {
  workerProcessesAuto: [{ since: '1.3.8' }, { since: '1.2.5', until: '1.3' }],
  msecVariable: [{ since: '1.3.9' }, { since: '1.2.6', until: '1.3' }],
  upstreamKeepalive: [{ since: '1.1.4' }],
  proxyHttpVersion: [{ since: '1.1.4' }],
  keepaliveByDefault: [{ since: '1.29.7' }], // upstream keepalive on and proxy_http_version 1.1 by default
};
