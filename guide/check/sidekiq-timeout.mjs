// Sidekiq's shutdown timeout (`:timeout:` in its config, `-t N` on its command line) against the time the platform the
// files prove waits between TERM and KILL. Sidekiq waits `timeout` seconds for running jobs, then pushes them back to
// Redis; its Deployment wiki asks for timeout + 5 seconds before KILL. Killed earlier, a running job is lost with basic
// fetch (Sidekiq Pro's super_fetch recovers it: not judged). Platforms: Heroku (a Procfile `release:` line: its release
// phase; dynos get 30 s), a systemd unit running Sidekiq (TimeoutStopSec, 90 s by default).
import { effective, envOf } from './crossfile.mjs';
import { sidekiqLines, sidekiqConfigOf } from './jobs.mjs';

const SIDEKIQ_DEPLOY = { label: 'Sidekiq wiki: Deployment (give Sidekiq its -t timeout + 5 seconds after TERM, or jobs can be lost)', url: 'https://github.com/sidekiq/sidekiq/wiki/Deployment' };
const HEROKU_SHUTDOWN = { label: 'Heroku Dev Center: dyno shutdown (30 seconds after SIGTERM, then SIGKILL)', url: 'https://devcenter.heroku.com/articles/dynos#shutdown' };
const SYSTEMD_STOP = { label: 'systemd.service(5): TimeoutStopSec (DefaultTimeoutStopSec=90s)', url: 'https://www.freedesktop.org/software/systemd/man/latest/systemd.service.html#TimeoutStopSec=' };
const MARGIN = 5;
// Sidekiq's own systemd example has no ExecReload ("Use `systemctl kill -s TSTP sidekiq` to quiet"): TSTP only quiets.
const SIDEKIQ_UNIT = { label: 'Sidekiq examples/systemd/sidekiq.service (no ExecReload; TSTP quiets the process)', url: 'https://github.com/sidekiq/sidekiq/blob/main/examples/systemd/sidekiq.service' };

// systemd time spans: "30", "30s", "1min 30s", "2m"; "infinity" never kills.
function seconds(v) {
  const t = String(v ?? '').trim();
  if (/^infinity$/i.test(t)) return Infinity;
  let total = 0;
  let any = false;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|m|min|minutes?|h|hr|hours?)?/g)) {
    const mult = { ms: 0.001, m: 60, min: 60, minute: 60, minutes: 60, h: 3600, hr: 3600, hour: 3600, hours: 3600 }[m[2]] ?? 1;
    total += Number(m[1]) * mult;
    any = true;
  }
  return any ? total : null;
}

/** The explicit shutdown timeout of a Sidekiq process: the command's -t/--timeout, else its config's :timeout:. */
function sidekiqTimeout(files, cmd, env) {
  const t = /(?:^|\s)(?:-t|--timeout)[\s=]+(\d+)\b/.exec(String(cmd || ''));
  if (t) return { value: Number(t[1]), file: null };
  const named = cmd && sidekiqConfigOf(cmd);
  const sq = files.find((f) => f.kind === 'sidekiq-yml' && !f.problem && (named ? f.path.endsWith(named) : true));
  const s = sq && (sq.settings.find((x) => x.path.join('.') === 'production.timeout') || sq.settings.find((x) => x.path.join('.') === 'timeout'));
  const v = s && Number(effective(s, env));
  return Number.isFinite(v) ? { value: v, file: sq.path, line: s.line, unset: s.env && !env.has(s.env) ? s.env : null } : null;
}

export function sidekiqTimeoutFindings(files) {
  const lock = files.find((f) => f.kind === 'gemfile-lock' && !f.problem);
  if (lock?.settings.some((s) => s.name === 'sidekiq-pro')) return [];
  const env = envOf(files);
  const out = [];
  const judge = (timeout, deadline, where, what, evidence) => {
    if (!timeout || timeout.value + MARGIN <= deadline) return;
    const at = timeout.file ? { file: timeout.file, line: timeout.line } : where;
    out.push({
      rule: 'jobs-lost', severity: 'warning', ...at, setting: 'timeout', found: String(timeout.value), expected: String(Math.max(1, deadline - MARGIN)),
      message: `Sidekiq waits up to ${timeout.value} s for running jobs after TERM${timeout.unset ? ` (the default of ${timeout.unset}, which nothing in these files sets)` : ''}, but ${what} kills the process ${deadline} s after TERM (${where.file}:${where.line}): a job still running then is killed before Sidekiq pushes it back to Redis, and with basic fetch it is lost. Set the timeout to ${Math.max(1, deadline - MARGIN)} or less (Sidekiq asks for timeout + ${MARGIN} s before KILL)`,
      evidence: [SIDEKIQ_DEPLOY, evidence], related: timeout.file ? [where] : [],
    });
  };
  // Heroku: a Procfile with a release: phase.
  const procfile = files.find((f) => f.kind === 'procfile' && !f.problem);
  const release = procfile?.settings.find((s) => s.name === 'release');
  if (release) {
    for (const l of sidekiqLines([procfile])) judge(sidekiqTimeout(files, l.s.value, env), 30, { file: procfile.path, line: l.s.line }, 'Heroku (the Procfile has a release: phase, line ' + release.line + ')', HEROKU_SHUTDOWN);
  }
  // systemd units whose ExecStart runs Sidekiq.
  for (const u of files.filter((f) => f.kind === 'systemd' && !f.problem)) {
    const exec = u.settings.find((s) => s.name === 'ExecStart' && /\bsidekiq\b/.test(s.value));
    if (!exec) continue;
    // A reload that sends TSTP leaves Sidekiq quiet (no new jobs, no new code) until something restarts it.
    const reload = u.settings.find((s) => s.name === 'ExecReload' && /(^|\s)-(s\s*)?(SIG)?TSTP\b|(^|\s)-20\b/i.test(s.value));
    if (reload) {
      out.push({
        rule: 'jobs-not-run', severity: 'warning', file: u.path, line: reload.line, setting: 'ExecReload', found: reload.value, expected: null,
        message: `ExecReload sends TSTP, which only quiets Sidekiq: it stops taking new jobs and loads no new code, and stays that way until the process stops, so \`systemctl reload\` leaves the job runner idle. Remove ExecReload, restart the unit to load new code, and quiet it before a deploy with \`systemctl kill -s TSTP <unit>\` as Sidekiq's own example unit says`,
        evidence: [SIDEKIQ_UNIT, SIDEKIQ_DEPLOY],
      });
    }
    const stop = u.settings.filter((s) => s.name === 'TimeoutStopSec' || s.name === 'TimeoutSec').pop();
    const deadline = stop ? seconds(stop.value) : 90;
    if (deadline === null || deadline === Infinity) continue;
    judge(sidekiqTimeout(files, exec.value, env), deadline, { file: u.path, line: (stop || exec).line }, `systemd (${stop ? `${stop.name}=${stop.value}` : 'DefaultTimeoutStopSec, 90 s'})`, SYSTEMD_STOP);
  }
  return out;
}
