// Configuration samples from parts 7, 9, 11, 12 and 15 run against the lab's Rails 8.1 app and Puma 8
// (scripts/lab; Debian's Ruby 3.3 without YJIT), not just through `ruby -c`:
// - the puma.rb of the application servers article, loaded by Puma's own configuration loader with
//   WEB_CONCURRENCY unset, "auto" and a number (the "auto" value crashed the old Integer(...) sample);
// - the application.rb lines (async query executor, config.yjit from APP_YJIT, strict-loading action)
//   and the two initializers (queue-time middleware, YJIT report), booted with `bin/rails runner`.
// - the set: the same puma.rb started in production (it binds the Unix socket) behind the nginx site of
//   the reverse proxies article, both at the stated app root (_data/sample-stack.yml), answering /up
//   over HTTPS and HTTP/2.
// The samples are read from the posts at test time, so an edit to an article is what gets tested.
// Takes one to five minutes depending on load (two Rails boots, one Puma config load, and Puma + nginx serving /up).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureLab, labScript, REPO } from '../helpers/lab.mjs';
import { loadPosts } from './lib.mjs';

const posts = new Map(loadPosts().map((p) => [p.slug, p]));

/** The fenced block of `lang` in a post whose first line starts with `firstLine`. */
export function sample(slug, lang, firstLine) {
  const p = posts.get(slug);
  assert.ok(p, `no post ${slug}`);
  const blocks = [...p.body.matchAll(/^```(\w+)\n([\s\S]*?)^```[ \t]*$/gm)].filter((m) => m[1] === lang).map((m) => m[2]);
  const b = blocks.find((x) => x.startsWith(firstLine));
  assert.ok(b, `${p.file}: no \`\`\`${lang} block starting with "${firstLine}"`);
  return b;
}

/** The lines of a block that match a pattern (configuration statements picked out of a longer sample). */
const lines = (block, re) => block.split('\n').filter((l) => re.test(l)).join('\n');

const DIR = join('tmp', `article-samples-${process.pid}`);
after(() => rmSync(join(REPO, DIR), { recursive: true, force: true }));

const CHECK_PUMA = String.raw`
require "puma"
require "puma/configuration"
require "json"
file = ARGV.fetch(0)
[nil, "auto", "3"].each do |wc|
  # puma.rb reads the process environment, Puma's defaults read the hash it is given: set both.
  ENV["RAILS_ENV"] = "production"
  wc ? ENV["WEB_CONCURRENCY"] = wc : ENV.delete("WEB_CONCURRENCY")
  conf = Puma::Configuration.new({ config_files: [file] }, {}, ENV.to_h)
  conf.clamp
  o = conf.options
  puts JSON.generate(kind: "puma", web_concurrency: wc, workers: o[:workers], min_threads: o[:min_threads], max_threads: o[:max_threads], preload: o[:preload_app], version: Puma::Const::PUMA_VERSION)
end
require "concurrent"
puts JSON.generate(kind: "cpus", available: Concurrent.available_processor_count)
`;

const PATCH_APP = String.raw`
p = "config/application.rb"
s = File.read(p)
i = s.rindex("  end\nend") or abort "application.rb: no closing 'end' of the Application class"
add = File.read(ARGV.fetch(0)).lines.map { |l| "    #{l}" }.join
File.write(p, s[0...i] + add + "\n" + s[i..])
`;

const RUNNER = 'require "json"; puts JSON.generate(kind: "rails", rails: Rails.version, executor: ActiveRecord.async_query_executor, concurrency: ActiveRecord.global_executor_concurrency, yjit_config: Rails.application.config.yjit, yjit_built: defined?(RubyVM::YJIT) ? true : false, yjit_on: defined?(RubyVM::YJIT) ? RubyVM::YJIT.enabled? : false, strict_action: ActiveRecord.action_on_strict_loading_violation, first_middleware: Rails.application.middleware.middlewares.first.inspect)';

test('article configuration samples work in the lab (Rails 8.1, Puma 8)', { timeout: 900_000 }, async () => {
  const lab = await ensureLab();
  assert.ok(lab.ok, `the lab could not be built: ${lab.reason}`);

  const puma = sample('app-servers', 'ruby', '# config/puma.rb for Rails 7.2+');
  const appLines = [
    lines(sample('concurrency-models', 'ruby', '# config/application.rb\nconfig.active_record.async_query_executor'), /^config\./),
    lines(sample('benchmark-your-own-app', 'ruby', '# config/application.rb (Rails 7.2+)'), /^config\.yjit/),
    lines(sample('rails-code', 'ruby', '# Rails 6.1 and later\nclass Post'), /^config\.active_record\.action_on_strict_loading_violation/),
  ].join('\n');
  assert.match(appLines, /async_query_executor/);
  assert.match(appLines, /config\.yjit/);
  assert.match(appLines, /action_on_strict_loading_violation/);
  const queueTime = sample('sizing-a-deployment', 'ruby', '# config/initializers/queue_time.rb');
  const bench = sample('benchmark-your-own-app', 'ruby', '# config/application.rb (Rails 7.2+)');
  const yjitReport = bench.slice(bench.indexOf('# config/initializers/yjit_report.rb'));
  assert.ok(yjitReport.startsWith('# config/initializers/yjit_report.rb'), 'the benchmark article shows the YJIT report initializer');

  mkdirSync(join(REPO, DIR), { recursive: true });
  const site = sample('reverse-proxies', 'nginx', 'upstream app {');
  const files = { 'site.conf': site, 'puma.rb': puma, 'check_puma.rb': CHECK_PUMA, 'patch_app.rb': PATCH_APP, 'app_lines.rb': `${appLines}\n`, 'queue_time.rb': queueTime, 'yjit_report.rb': yjitReport };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(REPO, DIR, name), text);

  const d = `/repo/${DIR}`;
  const r = await labScript(`
    cp -r /repo/lab/app /tmp/app && cd /tmp/app
    eval "$(lab-app env --dir /tmp/app)"
    bundle exec ruby ${d}/check_puma.rb ${d}/puma.rb
    ruby ${d}/patch_app.rb ${d}/app_lines.rb
    cp ${d}/queue_time.rb config/initializers/queue_time.rb
    cp ${d}/yjit_report.rb config/initializers/yjit_report.rb
    # Rails 8.1 logs to standard output in production: keep the JSON line and the YJIT report line.
    for y in 0 1; do APP_YJIT=$y bin/rails runner '${RUNNER}' 2>&1 | grep -E '^[{]|ruby=[^ ]+ yjit=' | sed -E 's/^.*(ruby=[^ ]+ yjit=[a-z]+).*$/REPORT \\1/'; done
    # The set together: the article's puma.rb (production: binds the Unix socket) behind the article's
    # nginx site, at the stated app root /var/www/app, with a throwaway certificate for its TLS lines.
    mkdir -p /var/www && ln -sfn /tmp/app /var/www/app && mkdir -p /tmp/app/tmp/sockets /tmp/app/tmp/pids
    N=/tmp/article-nginx && mkdir -p $N
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=example.org -keyout $N/key.pem -out $N/cert.pem 2>/dev/null
    sed -e "s#/etc/letsencrypt/live/example.org/fullchain.pem#$N/cert.pem#" -e "s#/etc/letsencrypt/live/example.org/privkey.pem#$N/key.pem#" ${d}/site.conf > $N/site.conf
    printf 'user root;\npid %s/nginx.pid;\nerror_log %s/error.log;\nevents {}\nhttp {\n  include /etc/nginx/mime.types;\n  access_log off;\n  include %s/site.conf;\n}\n' $N $N $N > $N/nginx.conf
    WEB_CONCURRENCY=2 bundle exec puma -C ${d}/puma.rb > /tmp/article-puma.log 2>&1 & PUMA=$!
    trap 'kill -TERM $PUMA 2>/dev/null; nginx -c $N/nginx.conf -s quit 2>/dev/null; true' EXIT
    nginx -c $N/nginx.conf
    for i in $(seq 1 120); do [ -S /var/www/app/tmp/sockets/puma.sock ] && break; sleep 0.5; done
    echo "SET $(curl -sk --max-time 20 --resolve example.org:443:127.0.0.1 -o /dev/null -w '%{http_code} http%{http_version}' https://example.org/up) $(ls /var/www/app/tmp/sockets/)"
  `, { timeout: 600 });
  assert.equal(r.code, 0, `lab run failed (${r.code}):\n${r.stdout}\n${r.stderr.split('\n').slice(-20).join('\n')}`);

  const out = r.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  const pumaRuns = out.filter((x) => x.kind === 'puma');
  const cpus = Math.floor(out.find((x) => x.kind === 'cpus').available);
  assert.equal(pumaRuns.length, 3, r.stdout);
  for (const x of pumaRuns) {
    assert.equal(x.max_threads, 3, `threads with WEB_CONCURRENCY=${x.web_concurrency}`);
    assert.equal(x.min_threads, 3);
  }
  const byWc = Object.fromEntries(pumaRuns.map((x) => [String(x.web_concurrency), x]));
  assert.equal(byWc['3'].workers, 3, 'WEB_CONCURRENCY=3 gives 3 workers');
  assert.equal(byWc.auto.workers, cpus > 1 ? cpus : 0, `WEB_CONCURRENCY=auto gives one worker per available CPU (${cpus}) and does not raise`);
  assert.equal(byWc.null.workers, byWc.auto.workers, 'unset means auto');
  if (byWc.auto.workers > 1) assert.equal(byWc.auto.preload, true, `preload_app! in cluster mode:\n${r.stdout}`);

  const rails = out.filter((x) => x.kind === 'rails');
  assert.equal(rails.length, 2, `two Rails boots expected:\n${r.stdout}\n${r.stderr.slice(-2000)}`);
  const [off, on] = rails;
  assert.match(off.rails, /^8\.1\./);
  for (const x of rails) {
    assert.equal(x.executor, 'global_thread_pool', 'load_async gets a background executor');
    assert.equal(x.concurrency, 4);
    assert.equal(x.strict_action, 'log');
    assert.equal(x.first_middleware, 'QueueTimeLogger', 'the queue-time middleware runs first');
  }
  assert.equal(off.yjit_config, false, 'APP_YJIT=0 turns config.yjit off');
  assert.equal(on.yjit_config, true, 'APP_YJIT=1 keeps config.yjit on in production');
  // Debian's Ruby is built without YJIT: config.yjit is true, yet the report must say off. That is the
  // article's point, and the log line is what tells the two apart.
  const reports = [...r.stdout.matchAll(/^REPORT ruby=(\S+) yjit=(on|off)$/gm)].map((m) => m[2]);
  assert.deepEqual(reports, [off.yjit_on ? 'on' : 'off', on.yjit_on ? 'on' : 'off'], `the YJIT report initializer must log what each process really runs:\n${r.stdout}`);
  // The set boots together: nginx's upstream reaches the socket Puma binds, over HTTP/2 with TLS.
  assert.match(r.stdout, /^SET 200 http2 puma\.sock$/m, `the article's nginx site and puma.rb must serve /up together:\n${r.stdout}\n${r.stderr.slice(-3000)}`);
});
