// Real validators for generated configuration files. Each function throws (with the tool's output) when the
// tool rejects the file or when the tool is missing: CI installs them through scripts/setup, so a missing
// validator is a failure, never a skip. No server is started: only configuration checks.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, copyFileSync, chmodSync, chownSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const created = [];

/** A temporary directory, removed by cleanup() (tests call it in an after() hook) or at process exit. */
export function tmp(prefix = 'wizard-') {
  const d = mkdtempSync(join(tmpdir(), prefix));
  created.push(d);
  return d;
}

export function cleanup() {
  while (created.length) rmSync(created.pop(), { recursive: true, force: true });
}
process.on('exit', cleanup);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60000, ...opts });
  if (r.error) throw new Error(`${cmd} could not run (${r.error.code || r.error.message}); install it via scripts/setup`);
  return r;
}

export function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

export function requireTool(cmd, pkg) {
  const p = which(cmd) || (existsSync(cmd) ? cmd : null);
  if (!p) throw new Error(`validator ${cmd} is missing: install Debian package ${pkg} (scripts/setup)`);
  return p;
}

function check(r, what) {
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return `${r.stdout}${r.stderr}`;
}

let nginxVersion = null;
function hostNginxAtLeast(min) {
  if (!nginxVersion) nginxVersion = /nginx\/(\d+(?:\.\d+)*)/.exec(`${run(requireTool('nginx', 'nginx'), ['-v']).stderr}`)[1];
  const a = nginxVersion.split('.').map(Number);
  const b = min.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
  return true;
}

let testCert = null;
/** A self-signed certificate and key made once with openssl (for validators that open certificate files). */
export function selfSignedCert() {
  if (testCert) return testCert;
  const openssl = requireTool('openssl', 'openssl');
  const dir = tmp('wizard-cert-');
  const cert = join(dir, 'fullchain.pem');
  const key = join(dir, 'privkey.pem');
  check(run(openssl, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=localhost', '-keyout', key, '-out', cert]), 'openssl req');
  testCert = { cert, key };
  return testCert;
}

/** Point the certificate paths of a generated file (certbot's /etc/letsencrypt/live/<domain>/…) at the test certificate. */
export function withTestCert(conf) {
  if (!/\/etc\/letsencrypt\/live\//.test(conf)) return conf;
  const c = selfSignedCert();
  return conf.replace(/\/etc\/letsencrypt\/live\/[^/\s]+\/fullchain\.pem/g, c.cert).replace(/\/etc\/letsencrypt\/live\/[^/\s]+\/privkey\.pem/g, c.key);
}

/**
 * The `user` of another distribution family (nginx on RHEL and Alpine, www on FreeBSD) does not exist on this Debian
 * validator host, and nginx -t would stop at getpwnam(): check the file with www-data instead (the rest unchanged).
 */
export function onThisHost(conf) {
  return conf.replace(/^user (\S+);$/m, (line, user) => (spawnSync('id', ['-u', user]).status === 0 ? line : 'user www-data;'));
}

// `http2 on;` (nginx 1.25.1+) means the same as the older `listen … http2` parameter: on an older validator host,
// check the file in that spelling (the lab's newer nginx checks the directive itself).
function http2AsHostSpells(conf) {
  if (!/^\s*http2 on;/m.test(conf) || hostNginxAtLeast('1.25.1')) return conf;
  return conf.replace(/^(\s*)http2 on;$/gm, '$1# http2 on; (validated as a listen parameter)').replace(/^(\s*listen (?:\[::\]:)?443 ssl)/gm, '$1 http2');
}

/** nginx -t on the generated main config + site, in a temporary prefix (certificate paths point at a test certificate). */
export function nginxTest(mainConf, siteConf) {
  const nginx = requireTool('nginx', 'nginx');
  siteConf = http2AsHostSpells(withTestCert(siteConf));
  const dir = tmp('wizard-nginx-');
  // The site goes where the main file includes it (sites-enabled on Debian, conf.d on RHEL, http.d on Alpine).
  // (The absolute include before it is the family's dynamic-modules directory, read as it is on the validator host.)
  const includes = [...mainConf.matchAll(/^\s*include (\S+)\/\*\.conf;$/gm)].map((m) => m[1]);
  const siteDir = includes.length ? includes.find((d) => !d.startsWith('/')) : 'sites-enabled';
  if (!siteDir) throw new Error(`nginx.conf includes its sites from ${includes.join(', ')}: expected a directory relative to the prefix`);
  writeFileSync(join(dir, 'nginx.conf'), onThisHost(mainConf));
  copyFileSync('/etc/nginx/mime.types', join(dir, 'mime.types'));
  mkdirSync(join(dir, siteDir));
  writeFileSync(join(dir, siteDir, 'rails-app.conf'), siteConf);
  mkdirSync(join(dir, 'logs'));
  return check(run(nginx, ['-t', '-q', '-p', dir, '-c', join(dir, 'nginx.conf')]), 'nginx -t');
}

/** haproxy -c on a generated haproxy.cfg (the certificate path points at a PEM holding the test certificate and key). */
export function haproxyTest(conf) {
  const haproxy = requireTool('haproxy', 'haproxy');
  const dir = tmp('wizard-haproxy-');
  if (/ crt \//.test(conf)) {
    const c = selfSignedCert();
    const pem = join(dir, 'site.pem');
    writeFileSync(pem, readFileSync(c.cert, 'utf8') + readFileSync(c.key, 'utf8'));
    conf = conf.replace(/ crt \/etc\/haproxy\/certs\/\S+/g, ` crt ${pem}`);
  }
  writeFileSync(join(dir, 'haproxy.cfg'), conf);
  return check(run(haproxy, ['-c', '-q', '-f', join(dir, 'haproxy.cfg')]), 'haproxy -c');
}

/** nginx -t on a balancer's complete nginx.conf (no site files), in a temporary prefix. */
export function nginxLbTest(conf) {
  const nginx = requireTool('nginx', 'nginx');
  const dir = tmp('wizard-nginx-lb-');
  writeFileSync(join(dir, 'nginx.conf'), onThisHost(http2AsHostSpells(withTestCert(conf))).replace(/^pid .*;$/m, `pid ${join(dir, 'nginx.pid')};`));
  mkdirSync(join(dir, 'logs'));
  return check(run(nginx, ['-t', '-q', '-p', dir, '-c', join(dir, 'nginx.conf')]), 'nginx -t (load balancer)');
}

const APACHE_MODULES = '/usr/lib/apache2/modules';

/** apache2 -t with a minimal server config that loads the modules the site needs, then includes it. */
export function apacheTest(siteConf, modules) {
  const apache = requireTool('/usr/sbin/apache2', 'apache2');
  siteConf = withTestCert(siteConf);
  const dir = tmp('wizard-apache-');
  const load = (m) => {
    const file = join(APACHE_MODULES, `mod_${m}.so`);
    if (!existsSync(file)) throw new Error(`Apache module ${m} is missing (${file}); install it via scripts/setup`);
    return `LoadModule ${m}_module ${file}`;
  };
  const base = ['mpm_event', 'authz_core', 'access_compat', 'mime', 'dir', 'alias'];
  const lines = [
    `ServerRoot ${dir}`, `PidFile ${dir}/httpd.pid`, `ErrorLog ${dir}/error.log`, `Mutex file:${dir} default`, 'Listen 127.0.0.1:8080', 'ServerName localhost',
    ...[...new Set([...base, ...modules])].map(load),
  ];
  if (modules.includes('passenger')) {
    lines.push(readFileSync('/etc/apache2/mods-available/passenger.conf', 'utf8'));
  }
  lines.push(`Include ${dir}/site.conf`);
  writeFileSync(join(dir, 'site.conf'), siteConf);
  writeFileSync(join(dir, 'httpd.conf'), `${lines.join('\n')}\n`);
  return check(run(apache, ['-t', '-f', join(dir, 'httpd.conf')], { env: { ...process.env, APACHE_RUN_DIR: dir, APACHE_LOG_DIR: dir } }), 'apache2 -t');
}

/** caddy validate on a Caddyfile. */
export function caddyValidate(caddyfile) {
  const caddy = requireTool('caddy', 'caddy');
  const dir = tmp('wizard-caddy-');
  writeFileSync(join(dir, 'Caddyfile'), caddyfile);
  return check(run(caddy, ['validate', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], { env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir } }), 'caddy validate');
}

function postgresBinary() {
  const direct = which('postgres');
  if (direct) return direct;
  const r = spawnSync('sh', ['-c', 'ls -d /usr/lib/postgresql/*/bin/postgres 2>/dev/null | sort -V | tail -1'], { encoding: 'utf8' });
  const p = r.stdout.trim();
  if (!p) throw new Error('validator postgres is missing: install Debian package postgresql (scripts/setup)');
  return p;
}

/** Major version of the PostgreSQL server the validator uses. */
export function postgresMajor() {
  const r = run(postgresBinary(), ['--version']);
  return Number(/(\d+)(?:\.\d+)?/.exec(check(r, 'postgres --version'))[1]);
}

/** postgres -C on a config that includes the generated file; returns {name: value} for the asked parameters. */
export function postgresCheck(conf, params = ['shared_buffers']) {
  const postgres = postgresBinary();
  const dir = tmp('wizard-pg-');
  chmodSync(dir, 0o755);
  const data = join(dir, 'data');
  mkdirSync(data, { mode: 0o700 });
  writeFileSync(join(dir, 'generated.conf'), conf);
  writeFileSync(join(dir, 'pg_hba.conf'), '');
  writeFileSync(join(dir, 'pg_ident.conf'), '');
  writeFileSync(join(dir, 'main.conf'), [`data_directory = '${data}'`, `hba_file = '${dir}/pg_hba.conf'`, `ident_file = '${dir}/pg_ident.conf'`, `include '${dir}/generated.conf'`, ''].join('\n'));
  const asRoot = process.getuid && process.getuid() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(data, uid, -1);
  }
  const out = {};
  for (const p of params) {
    const args = [`--config-file=${dir}/main.conf`, '-C', p];
    const r = asRoot ? run('runuser', ['-u', 'postgres', '--', postgres, ...args]) : run(postgres, args);
    out[p] = check(r, `postgres -C ${p}`).split('\n').filter((l) => l && !/LOG:/.test(l)).pop();
  }
  return out;
}

/** mariadbd --defaults-file=FILE --help --verbose: rejects unknown options and bad values; returns variables. */
export function mariadbCheck(cnf) {
  const bin = which('mariadbd') || which('mysqld');
  if (!bin) throw new Error('validator mariadbd is missing: install Debian package mariadb-server (scripts/setup)');
  const dir = tmp('wizard-my-');
  writeFileSync(join(dir, 'my.cnf'), cnf);
  const text = check(run(bin, [`--defaults-file=${dir}/my.cnf`, '--help', '--verbose']), 'mariadbd --help --verbose');
  if (/\[ERROR\]|\[Warning\].*(unknown|ignored)/i.test(text)) throw new Error(`mariadbd reported a problem:\n${text.split('\n').filter((l) => /ERROR|Warning/.test(l)).join('\n')}`);
  const vars = {};
  for (const l of text.split('\n')) {
    const m = /^([a-z0-9-]+)\s+(\S.*)$/.exec(l);
    if (m) vars[m[1]] = m[2].trim();
  }
  return vars;
}

/** systemd-analyze verify on a unit (or drop-in directory). */
export function systemdVerify(name, content) {
  const sa = requireTool('systemd-analyze', 'systemd');
  const dir = tmp('wizard-systemd-');
  writeFileSync(join(dir, name), content);
  const r = run(sa, ['verify', '--man=no', join(dir, name)], { env: { ...process.env, SYSTEMD_LOG_LEVEL: 'warning' } });
  const text = `${r.stdout}${r.stderr}`;
  // Lines about the host's own units are not about our file; fail on anything that names our file.
  const ours = text.split('\n').filter((l) => l.includes(name) || l.includes(dir));
  if (r.status !== 0 && ours.length) throw new Error(`systemd-analyze verify failed:\n${text}`);
  if (ours.length) throw new Error(`systemd-analyze verify reported:\n${ours.join('\n')}`);
  return text;
}

/** systemd-analyze security --offline on a unit: returns the overall exposure score (0 = safe … 10 = unsafe). */
export function systemdSecurity(name, content) {
  const sa = requireTool('systemd-analyze', 'systemd');
  const dir = tmp('wizard-sec-');
  writeFileSync(join(dir, name), content);
  const r = run(sa, ['security', '--offline=true', '--no-pager', join(dir, name)], { env: { ...process.env, SYSTEMD_LOG_LEVEL: 'warning' } });
  const text = `${r.stdout}${r.stderr}`;
  const m = /Overall exposure level for \S+: (\d+(?:\.\d+)?) (\S+)/.exec(text);
  if (!m) throw new Error(`systemd-analyze security gave no score:\n${text}`);
  return { score: Number(m[1]), label: m[2], text };
}

/** logrotate -d (debug: parse and plan, rotate nothing) on a config file; fails on any error line. */
export function logrotateCheck(conf) {
  const bin = requireTool('logrotate', 'logrotate');
  const dir = tmp('wizard-logrotate-');
  // `su USER GROUP` must name an existing user: the service user lives on the target host, not here.
  writeFileSync(join(dir, 'rails-app'), conf.replace(/^(\s*su) \S+ \S+$/m, '$1 nobody nogroup'), { mode: 0o644 });
  const r = run(bin, ['-d', '-s', join(dir, 'state'), join(dir, 'rails-app')]);
  const text = `${r.stdout}${r.stderr}`;
  if (r.status !== 0 || /^error:/m.test(text)) throw new Error(`logrotate -d failed:\n${text}`);
  return text;
}

/** Ruby syntax check of many files at once. */
export function rubySyntax(files) {
  const ruby = requireTool('ruby', 'ruby-full');
  for (const f of files) check(run(ruby, ['-c', f]), `ruby -c ${f}`);
}

/**
 * Load puma.rb files with Puma's own configuration loader and unicorn.rb files with Unicorn::Configurator,
 * through the project's bundle (Gemfile test group). Returns parsed facts per file.
 */
export const E2E_BUNDLE_ENV = {
  BUNDLE_GEMFILE: join(REPO, 'tests', 'wizard', 'e2e', 'Gemfile'),
  BUNDLE_PATH: join(REPO, 'vendor', 'bundle', 'wizard-e2e'),
  BUNDLE_APP_CONFIG: join(REPO, 'vendor', 'bundle', 'wizard-e2e', '.bundle'),
};

export function loadRubyConfigs(items, { e2eBundle = false, extraEnv = {} } = {}) {
  requireTool('bundle', 'ruby-full (bundler)');
  const dir = tmp('wizard-rb-');
  writeFileSync(join(dir, 'items.json'), JSON.stringify(items));
  const env = { ...process.env, ...(e2eBundle ? E2E_BUNDLE_ENV : {}), ...extraEnv };
  for (const [k, v] of Object.entries(extraEnv)) if (v === null) delete env[k]; // null: unset
  if (e2eBundle && spawnSync('bundle', ['check'], { env, encoding: 'utf8' }).status !== 0) {
    throw new Error('the gems of tests/wizard/e2e/Gemfile are missing: run tests/wizard/e2e/setup (scripts/setup does)');
  }
  const r = run('bundle', ['exec', 'ruby', join(REPO, 'tests', 'wizard', 'load-configs.rb'), join(dir, 'items.json')], { cwd: REPO, timeout: 120000, env });
  const text = check(r, 'loading Ruby configs with Puma/Unicorn');
  return JSON.parse(text.slice(text.indexOf('{')));
}

/** YAML parse of database.yml after ERB, with Ruby's own ERB and Psych. Returns the parsed structures. */
export function yamlAfterErb(files) {
  const ruby = requireTool('ruby', 'ruby-full');
  const script = 'require "erb"; require "yaml"; require "json"; out = {}; ARGV.each { |f| src = ERB.new(File.read(f)).result; out[f] = YAML.respond_to?(:unsafe_load) ? YAML.unsafe_load(src) : YAML.load(src) }; puts JSON.generate(out)';
  const r = run(ruby, ['-e', script, ...files]);
  return JSON.parse(check(r, 'ERB + YAML'));
}
