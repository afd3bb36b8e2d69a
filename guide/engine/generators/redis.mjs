// Redis for Sidekiq (jobs = sidekiq), on the app host: its settings (etc/redis/rails.conf, included from Debian's
// redis.conf), and systemd drop-ins that order the app and job units after Redis and give them REDIS_URL. A chunk
// of its own on the page (guide/ui/generators.mjs); its README lines go on the summary for readme-ops' step 3.
// Sources: Sidekiq wiki "Using Redis" (maxmemory-policy noeviction: Redis must never drop jobs; persistence on),
// Redis docs on eviction and persistence (appendonly + appendfsync everysec loses at most a second on a crash).
import { SRC } from '../evidence.mjs';
import { t, lines } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { fam, commandsOf, releaseOf } from './family-steps.mjs';
import { REDIS_FACTS } from '../caps.mjs';
import { firstSince } from '../pick.mjs';
import { familyDestination } from './readme.mjs';
import { compareLines, restartIfChanged } from './restart-on-change.mjs';

export const id = 'redis';
// A family with a command table (capabilities/family-commands.mjs) names Redis's unit and configuration file.
const FAMILY_OK = (ctx) => Boolean(commandsOf(ctx)?.redisConf);
export const REDIS_URL = 'redis://127.0.0.1:6379/0';
const CONF = 'etc/redis/rails.conf';
// How long README step 3 waits for the first rewrite of the append-only file (a Sidekiq Redis holds megabytes, not
// gigabytes: seconds in practice); then it stops without restarting.
const AOF_WAIT_S = 300;

function dropIn(unit, ctx) {
  const svc = `${FAMILY_OK(ctx) ? fam(ctx, 'services.redis') : 'redis-server'}.service`;
  return {
    path: `etc/systemd/system/${unit}.d/redis.conf`, format: 'systemd',
    body: [
      { section: 'Unit', entries: [
        { key: 'Wants', value: svc, why: t('redis.order'), evidence: [SRC.systemdService] },
        { key: 'After', value: svc },
      ] },
      { section: 'Service', entries: [{ key: 'Environment', value: `REDIS_URL=${REDIS_URL}`, why: t('redis.url', { mb: ctx.redisMb }), evidence: [SRC.sidekiqRedis] }] },
    ],
  };
}

export function generate(ctx) {
  if (!APPLIES.redis(ctx)) return {};
  const body = [
    `# ${t('redis.conf')}`, `# see: ${SRC.sidekiqRedis.url}`, `# see: ${SRC.redisConf.url}`,
    // The release's Redis (capabilities/redis.mjs): '-::1' (skip IPv6 loopback when absent) only from 6.2; before it, and
    // for a release the table does not know, IPv4 loopback alone, which every Redis accepts.
    `bind ${firstSince(REDIS_FACTS.bind, releaseOf(ctx)?.redis || '0')?.value || '127.0.0.1'}`,
    `# ${t('redis.maxmemory', { mb: ctx.redisMb })}`,
    `maxmemory ${ctx.redisMb}mb`,
    'maxmemory-policy noeviction',
    `# ${t('redis.aof')}`,
    'appendonly yes',
    'appendfsync everysec',
  ];
  const files = [{ path: CONF, format: 'lines', body }];
  if (ctx.a.init === 'systemd') files.push(dropIn('rails-app.service', ctx), dropIn(ctx.jobs === 'solid_queue' ? 'rails-jobs.service' : 'rails-jobs@.service', ctx));
  return { files };
}

/**
 * README step 3's lines for Redis (left on the summary): rails.conf compared with the installed one before step 3
 * installs it, then the package, the include line in redis.conf, and a restart only when either changed (SRE check 5,
 * m1: every re-run of the step restarted Redis, and enqueues failed meanwhile). Before that restart, a running Redis
 * with the append-only file off gets it turned on live and the restart waits for its rewrite (SRE check 6, D2: a
 * restart straight into appendonly yes starts empty and every queued job is lost; redis.conf's appendonly comment,
 * redis/redis#12484). Proven in the lab by tests/wizard/redis-aof.test.mjs.
 */
export function finish(summary) {
  const { ctx } = summary;
  if (!APPLIES.redis(ctx) || !ctx.linux || !FAMILY_OK(ctx)) return [];
  const conf = fam(ctx, 'redisConf');
  const svc = fam(ctx, 'services.redis');
  // Valkey's package (the RHEL 10 row) ships valkey-cli; redis-cli comes only with its compatibility package.
  const valkey = svc === 'valkey';
  const cli = valkey ? 'valkey-cli' : 'redis-cli';
  const src = valkey ? SRC.valkeyAofSwitch : SRC.redisAofSwitch;
  summary.hostBlocks = { ...summary.hostBlocks,
    before: [...(summary.hostBlocks?.before || []), ...compareLines('REDIS', [{ src: CONF, dest: familyDestination(ctx, CONF) || `/${CONF}` }])],
    redis: [
      fam(ctx, 'packages.redis'),
      `grep -qx 'include /${CONF}' ${conf} || { echo 'include /${CONF}' >> ${conf}; REDIS=1; }`,
      `# ${t('redis.aof-switch', { cli })}`, `# see: ${src.url}`,
      ...lines('cmd.readme.redis-aof', { cli, svc, s: AOF_WAIT_S }),
      restartIfChanged('REDIS', svc),
    ] };
  return [];
}


