// lb-host/lb-rotation.sh and the rolling deploy of README steps 7 and 8 (issue 23, scenario 4): with several app
// hosts behind the bundle's balancer, a deploy goes one host at a time — out of rotation on the balancer (waiting
// for its requests in flight), deploy.sh on that host (migrations on the first host only; deploy.sh checks /up),
// back into rotation, then the next host. How a balancer drains is capability data (capabilities/lb-rotation.mjs);
// this module only fills in the names. Called by readme-hosts.mjs's finish (a chunk on the page), which leaves the
// README lines for readme-ops.mjs and adds the script to the bundle.
import { LB_ROTATION, HAPROXY_DEBIAN } from '../caps.mjs';
import { APPLIES } from './applies.mjs';
import { backends } from './load-balancer.mjs';
import { DEPLOY_SCRIPT } from './releases.mjs';
import { LB_PREFIX } from './util.mjs';
import { timeoutChain } from './edge.mjs';
import { t } from '../text.mjs';

export const ROTATION_SCRIPT = `${LB_PREFIX}lb-rotation.sh`;
// The names the generated balancer files use (load-balancer.mjs): the HAProxy backend / nginx upstream, nginx's files.
const NAMES = { backend: 'rails_hosts', conf: '/etc/nginx/nginx.conf', pid: '/run/nginx.pid' };

/** A rolling deploy applies where the bundle has both a balancer it configures and release directories. */
export const rolls = (ctx) => Boolean(ctx.releases && APPLIES['load-balancer'](ctx) && LB_ROTATION[ctx.a.lb]);

const fill = (s) => s.replace(/\{(\w+)\}/g, (_, k) => (k === 'socket' ? HAPROXY_DEBIAN.statsSocket[0] : k === 'state' ? HAPROXY_DEBIAN.stateFile : NAMES[k]));

export function rotationScript(ctx) {
  const cap = LB_ROTATION[ctx.a.lb];
  const { hosts } = backends(ctx);
  const c = (key, vars) => `# ${t(`lb-rotation.${key}`, vars)}`;
  // Longer than any request the timeout chain lets through the balancer (nginx closes what old workers hold then).
  const wait = timeoutChain(ctx).shutdown;
  const usage = `usage: lb-rotation.sh drain|ready ${hosts.map((h) => h.name).join('|')}`;
  return [
    c('usage', { lb: ctx.a.lb }),
    'set -eu',
    'fail() { echo "lb-rotation.sh: $*" >&2; exit 1; }',
    // The install command of the balancer's family (the same family as the app hosts: dnf on RHEL).
    `command -v ${cap.needs} >/dev/null || fail "${cap.needs} is missing (${ctx.family.pkg || 'apt-get install'} ${cap.package || cap.needs})"`,
    c('hosts'),
    'HOST=${2:-}',
    'case "$HOST" in',
    ...hosts.map((h) => `  ${h.name}) ADDR=${h.addr} ;;`),
    `  *) fail "${usage}" ;;`,
    'esac',
    c('snapshot'),
    `snapshot() { ${fill(cap.snapshot)}; }`,
    c(`drain.${ctx.a.lb}`),
    `drain() { ${fill(cap.drain)}; }`,
    c('ready'),
    `ready() { ${fill(cap.ready)}; }`,
    c(`in-flight.${ctx.a.lb}`),
    `in_flight() { ${fill(cap.inFlight)}; }`,
    c(`others-up.${ctx.a.lb}`),
    `others_up() { ${fill(cap.othersUp)}; }`,
    ...(cap.stateOf ? [c('state-of'), `state_of() { ${fill(cap.stateOf)}; }`] : []),
    c(`wait.${ctx.a.lb}`, { s: wait }),
    `WAIT=${wait}`,
    ...(cap.helpers || []).flatMap(([key, line]) => [c(`${key}.${ctx.a.lb}`), fill(line)]),
    '',
    'case "${1:-}" in',
    '  drain)',
    '    u=$(others_up) || exit 1',
    '    case "$u" in ""|*[!0-9]*) fail "could not tell whether another host is up (got \\"$u\\"); $HOST stays in rotation" ;; 0) fail "no other app host is up and in rotation: draining $HOST would leave none (every request would fail); bring another host up first" ;; esac',
    '    # shellcheck disable=SC2034 # read by in_flight for some balancers only',
    '    SNAPSHOT=$(snapshot) && drain',
    '    i=0',
    `    # ${t('lb-rotation.count')}`,
    '    while :; do',
    '      n=$(in_flight) || exit 1',
    '      case "$n" in ""|*[!0-9]*) fail "could not count the requests in flight on $HOST (got \\"$n\\"): it is drained; check the balancer, then ready or deploy" ;; esac',
    '      [ "$n" != 0 ] || break',
    '      i=$((i + 1))',
    `      if [ "$i" -gt $((WAIT * 2)) ]; then echo "lb-rotation.sh: ${t(`lb-rotation.left.${ctx.a.lb}`)}" >&2; break; fi`,
    '      sleep 0.5',
    '    done',
    '    echo "lb-rotation.sh: $HOST ($ADDR) out of rotation" ;;',
    ...(cap.stateOf ? [
      '  ready)',
      '    ready',
      `    # ${t('lb-rotation.wait-up', { s: LB_ROTATION.readyWaitS })}`,
      '    i=0',
      '    while :; do',
      '      s=$(state_of) || exit 1',
      '      case "$s" in UP|"UP "*) break ;; esac',
      '      i=$((i + 1))',
      `      [ "$i" -le ${LB_ROTATION.readyWaitS} ] || fail "$HOST is back in rotation but not up after ${LB_ROTATION.readyWaitS} s (the balancer says \\"$s\\"): its health check fails; do not drain another host"`,
      '      sleep 1',
      '    done',
      '    echo "lb-rotation.sh: $HOST ($ADDR) back in rotation and up" ;;',
    ] : ['  ready) ready && echo "lb-rotation.sh: $HOST ($ADDR) back in rotation" ;;']),
    `  *) fail "${usage}" ;;`,
    'esac',
  ];
}

/** README lines for a rolling COMMAND ('deploy /path/to/checkout' or 'rollback'): each group says where it runs. */
export function rollingLines(ctx, command) {
  const { hosts } = backends(ctx);
  const deploying = command.startsWith('deploy');
  // A deploy builds on every host first (the first with the migrations; each running release gets the new assets),
  // then switches host by host out of rotation; a rollback only switches.
  const build = deploying ? hosts.flatMap((h, i) => [
    `# ${t(i === 0 ? 'lb-rotation.readme.build-first' : 'lb-rotation.readme.build-next', { host: h.name })}`,
    `sh ${DEPLOY_SCRIPT} ${command.replace(/^deploy/, 'build')}${i > 0 ? ' --no-migrate' : ''}`,
  ]) : [];
  return [...(deploying ? [`# ${t('ops.readme.migrate-once')}`] : []), ...build, ...hosts.flatMap((h) => [
    `# ${t('lb-rotation.readme.drain', { host: h.name })}`,
    `sh ${ROTATION_SCRIPT} drain ${h.name}`,
    `# ${t(deploying ? 'lb-rotation.readme.switch' : 'lb-rotation.readme.on', { host: h.name })}`,
    `sh ${DEPLOY_SCRIPT} ${deploying ? 'switch' : command}`,
    `# ${t('lb-rotation.readme.ready', { host: h.name })}`,
    `sh ${ROTATION_SCRIPT} ready ${h.name}`,
  ])];
}
