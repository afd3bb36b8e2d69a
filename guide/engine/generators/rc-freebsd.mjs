// FreeBSD rc.d scripts for the app server and the job runner (issue 11): rc.subr conventions (PROVIDE/REQUIRE,
// rcvar, load_rc_config), with daemon(8) as supervisor: it drops to the app user, restarts the server if it dies
// (-r), and forwards the SIGTERM of `service … stop` to it. That forwarding is why only servers whose graceful
// stop is SIGTERM get a script (Puma, Falcon, Passenger standalone, WEBrick); Unicorn, Pitchfork and Thin stop
// gracefully on SIGQUIT, which daemon(8) does not forward, so they keep the README's foreground command.
// Validated by `sh -n` and structure in the sweep: FreeBSD is not available to the tests.
import { SRC } from '../evidence.mjs';
import { SERVER_PROCESS } from '../caps.mjs';
import { absolute, execStart } from './systemd.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { FREEBSD_SECRETS } from './util.mjs';

export const id = 'rc-freebsd';
export const RC_DIR = 'usr/local/etc/rc.d';

/** The rc.d script as lines: name (rc variable prefix), the foreground command, the extra environment files. */
export function rcScript(ctx, { name, description, command, envFiles, reload }) {
  const pid = `/var/run/${name}`;
  const sources = ['set -a', `. ${FREEBSD_SECRETS}`, ...envFiles.map((f) => `. ${f}`), 'set +a'].join('; ');
  return [
    `# PROVIDE: ${name}`,
    '# REQUIRE: LOGIN DAEMON NETWORKING',
    '# KEYWORD: shutdown',
    `# ${description}`,
    `# ${t('rc.enable', { name })}`,
    `# see: ${SRC.freebsdRc.url}`,
    '',
    '. /etc/rc.subr',
    '',
    `name="${name}"`,
    `rcvar="${name}_enable"`,
    `load_rc_config "$name"`,
    `: "\${${name}_enable:=NO}"`,
    `: "\${${name}_user:=${ctx.user}}"`,
    `: "\${${name}_dir:=${ctx.root}}"`,
    '',
    `# ${t('rc.daemon')}`,
    `pidfile="${pid}.pid"`,
    `child_pidfile="${pid}.child.pid"`,
    'command="/usr/sbin/daemon"',
    `command_args="-r -S -T $name -P $pidfile -p $child_pidfile -u \${${name}_user} /bin/sh -c 'cd \${${name}_dir} && ${sources} && RAILS_ENV=production exec ${command}'"`,
    ...(reload ? [
      '',
      `# ${t('rc.reload', { signal: reload })}`,
      'extra_commands="reload"',
      `reload_cmd="kill -${reload.replace(/^SIG/, '')} \\$(cat $child_pidfile)"`,
    ] : []),
    '',
    'run_rc_command "$1"',
  ];
}

export function generate(ctx) {
  if (!APPLIES['rc-freebsd'](ctx)) return {};
  const p = SERVER_PROCESS[ctx.server] || {};
  const files = [];
  if (p.stopSignal === 'SIGTERM') {
    files.push({
      path: `${RC_DIR}/rails_app`, format: 'sh', meta: { role: 'web', server: ctx.server },
      body: rcScript(ctx, { name: 'rails_app', description: t('rc.web'), command: absolute(ctx, execStart(ctx)), envFiles: ['config/ruby.env'], reload: p.reload && p.reload.signal && !p.reload.handover ? p.reload.signal : null }),
    });
  }
  // Solid Queue's supervisor and Sidekiq both finish their jobs on SIGTERM.
  if (ctx.jobRunner && (ctx.jobs === 'solid_queue' || ctx.jobs === 'sidekiq')) {
    const command = ctx.jobs === 'solid_queue' ? `${ctx.rubyBin}/bundle exec bin/jobs start` : absolute(ctx, ctx.jobRunner.command);
    files.push({
      path: `${RC_DIR}/rails_jobs`, format: 'sh', meta: { role: 'jobs', runner: ctx.jobs },
      body: rcScript(ctx, { name: 'rails_jobs', description: t('rc.jobs', { runner: ctx.jobRunner.label }), command, envFiles: ['config/ruby.env', 'config/jobs.env'], reload: null }),
    });
  }
  return { files };
}
