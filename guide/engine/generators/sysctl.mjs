// /etc/sysctl.d file (Linux only), filtered by the kernel's capabilities; plus an udev rule for the I/O scheduler
// on kernels whose default is not already the right one.
import { IO_SCHEDULERS, KERNEL_FEATURES, SYSCTL_KEYS, NEVER_EMIT } from '../caps.mjs';
import { SRC, DS, ART } from '../evidence.mjs';
import { has } from '../pick.mjs';
import { inRange } from '../version.mjs';
import { SERVER_LABEL } from './util.mjs';
import { t } from '../text.mjs';

export const id = 'sysctl';

export function keyExists(key, kernel) {
  const k = SYSCTL_KEYS.find((x) => x.key === key);
  return Boolean(k) && inRange(kernel, k);
}

export function schedulerExists(name, kernel) {
  const s = IO_SCHEDULERS.find((x) => x.name === name);
  return Boolean(s) && inRange(kernel, s);
}

export function sysctlEntries(ctx) {
  const k = ctx.a.kernel;
  const out = [];
  const modernBacklog = has(KERNEL_FEATURES.somaxconn4096Default, k);
  if (!modernBacklog) {
    out.push({ key: 'net.core.somaxconn', value: 4096, why: t('sysctl.somaxconn', { server: SERVER_LABEL[ctx.server] }), evidence: [DS.sysctl, SRC.ipSysctl, ART.kernel] });
    out.push({ key: 'net.ipv4.tcp_max_syn_backlog', value: 4096, why: t('sysctl.1'), evidence: [SRC.ipSysctl] });
  } else {
    out.push({ comment: t('sysctl.somaxconn-default', { k }) });
  }
  out.push({ key: 'net.core.netdev_max_backlog', value: 4096, why: t('sysctl.2'), evidence: [DS.sysctl, SRC.ipSysctl] });
  out.push({ key: 'net.ipv4.tcp_fin_timeout', value: 15, why: t('sysctl.3'), evidence: [DS.sysctl, SRC.timeWait, ART.kernel] });
  out.push({ blank: true });
  out.push({ comment: t('sysctl.4') });
  out.push({ comment: t(keyExists('net.ipv4.tcp_tw_recycle', k) ? 'sysctl.recycle' : 'sysctl.recycle-gone', { k }) });
  out.push({ comment: t('sysctl.5') });
  out.push({ comment: t('sysctl.6') });
  out.push({ comment: t('sysctl.7') });
  return out.filter((e) => !e.key || (keyExists(e.key, k) && !NEVER_EMIT.includes(e.key)));
}

/** The scheduler to set, or null when the kernel default is already right. */
export function schedulerChoice(ctx) {
  const k = ctx.a.kernel;
  if (has(KERNEL_FEATURES.legacySchedulersRemoved, k)) return null; // 5.0+: mq-deadline for single-queue, none for NVMe by default
  // NVMe devices are multi-queue: no legacy scheduler applies, and from 4.11 their default "none" is right.
  if (ctx.a.storage === 'nvme') return null;
  return 'deadline'; // CFQ was the 2.6-era default; the thesis chose deadline
}

export function generate(ctx) {
  if (!ctx.linux) return {};
  const files = [{ path: 'etc/sysctl.d/60-rails.conf', format: 'sysctl', body: sysctlEntries(ctx) }];
  const sched = schedulerChoice(ctx);
  if (sched) {
    const rule = `ACTION=="add|change", KERNEL=="sd[a-z]*", ATTR{queue/scheduler}="${sched}"`;
    files.push({
      path: 'etc/udev/rules.d/60-io-scheduler.rules', format: 'lines',
      body: [`# ${t('sysctl.sched', { sched, k: ctx.a.kernel })}`, `# see: ${DS.sysctl.url}`, `# see: ${SRC.ioSched.url}`, rule],
      scheduler: sched,
    });
  }
  return { files };
}
