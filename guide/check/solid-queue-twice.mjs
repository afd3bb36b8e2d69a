// Solid Queue started twice on one host: Puma's `plugin :solid_queue` with no condition (the Rails template guards it
// with `if ENV["SOLID_QUEUE_IN_PUMA"]`) and a Kamal role whose cmd runs bin/jobs or solid_queue:start on a host the web
// role also deploys to (seventh blind trial: rails-new-io). Each start is a supervisor with its own workers,
// dispatcher and scheduler: twice the memory and connections, twice the polling of the queue database. A warning
// (README "Severity"): the jobs run, but at a cost nobody chose. The inverse, SOLID_QUEUE_IN_PUMA with neither, is
// jobs.mjs's jobs-not-run.
import { deployCommands } from './read-deploy.mjs';

const SOLID_QUEUE_PUMA = { label: 'Solid Queue README: Puma plugin (plugin :solid_queue) — an alternative to running bin/jobs', url: 'https://github.com/rails/solid_queue#puma-plugin' };
const RUNS_SOLID_QUEUE = /(^|[\s"'[,/])(bin\/jobs|solid_queue:start)\b/;

/** Hosts of a Kamal role: `servers: [..]` (the web role), `servers.ROLE: [..]` or `servers.ROLE.hosts: [..]`. */
function roleHosts(kamal, role) {
  return new Set(kamal.settings.filter((s) => s.path?.[0] === 'servers' && typeof s.value === 'string' && (
    (role === 'web' && s.path.length === 2 && /^\d+$/.test(s.path[1]))
    || (s.path[1] === role && ((s.path.length === 3 && /^\d+$/.test(s.path[2])) || (s.path.length === 4 && s.path[2] === 'hosts'))))).map((s) => s.value));
}

export function solidQueueTwiceFindings(files, answers) {
  if (answers.server && answers.server !== 'puma') return [];
  const puma = files.find((f) => f.kind === 'puma' && !f.problem);
  const plugin = puma?.settings.find((s) => s.name === 'plugin' && !s.conditional && s.args?.some((a) => a.value === ':solid_queue'));
  if (!plugin) return [];
  const out = [];
  for (const kamal of files.filter((f) => f.kind === 'kamal' && !f.problem)) {
    const web = roleHosts(kamal, 'web');
    for (const c of deployCommands([kamal])) {
      if (c.role === 'web' || !RUNS_SOLID_QUEUE.test(String(c.cmd))) continue;
      const shared = [...roleHosts(kamal, c.role)].filter((h) => web.has(h));
      if (!shared.length) continue;
      out.push({
        rule: 'jobs-run-twice', severity: 'warning', file: puma.path, line: plugin.line, setting: 'plugin', found: 'plugin :solid_queue', expected: null,
        message: `Solid Queue is started twice on ${shared.join(', ')}: ${puma.path}:${plugin.line} loads \`plugin :solid_queue\` in every web container with no condition, and the Kamal role \`${c.role}\` (${c.file}:${c.line}: \`${c.cmd}\`) runs it again on the same host. Two supervisors each start the workers, dispatcher and scheduler of config/queue.yml: twice the memory, connections and polling of the queue database. Keep one: guard the plugin with \`if ENV["SOLID_QUEUE_IN_PUMA"]\` (the Rails template's line) or drop the \`${c.role}\` role`,
        evidence: [SOLID_QUEUE_PUMA], related: [{ file: c.file, line: c.line }],
      });
    }
  }
  // systemd units given together are one host's: a unit whose ExecStart runs Puma and another that runs Solid Queue
  // (mushroom-observer's config/etc/puma.service and solidqueue.service, its issue #4639: "Production runs two
  // SolidQueue supervisors").
  const units = files.filter((f) => f.kind === 'systemd' && !f.problem);
  const execs = (u) => u.settings.filter((x) => (x.key || x.name) === 'ExecStart').map((x) => ({ cmd: String(x.value ?? ''), line: x.line }));
  const web = units.find((u) => execs(u).some((e) => /(^|[\s/])puma(\s|$)/.test(e.cmd)));
  for (const u of web ? units.filter((x) => x !== web) : []) {
    const e = execs(u).find((x) => RUNS_SOLID_QUEUE.test(x.cmd));
    if (!e) continue;
    out.push({
      rule: 'jobs-run-twice', severity: 'warning', file: puma.path, line: plugin.line, setting: 'plugin', found: 'plugin :solid_queue', expected: null,
      message: `Solid Queue is started twice on the host of these units: ${puma.path}:${plugin.line} loads \`plugin :solid_queue\` with no condition in the Puma that ${web.path} starts, and ${u.path}:${e.line} (\`${e.cmd}\`) runs it again. Two supervisors each start the workers, dispatcher and scheduler of config/queue.yml: twice the memory, connections and polling of the queue database, and stopping ${u.path} leaves Puma's supervisor claiming jobs. Keep one: guard the plugin (\`if ENV["SOLID_QUEUE_IN_PUMA"]\`, or leave it to development) or drop ${u.path}`,
      evidence: [SOLID_QUEUE_PUMA], related: [{ file: u.path, line: e.line }, { file: web.path, line: execs(web)[0].line }],
    });
  }
  return out;
}
