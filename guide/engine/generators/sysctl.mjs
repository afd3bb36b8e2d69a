// /etc/sysctl.d file (Linux only), filtered by the kernel's capabilities; plus an udev rule for the I/O scheduler
// on kernels whose default is not already the right one.
import { SYSCTL_KEYS, NEVER_EMIT, IO_SCHEDULERS, KERNEL_FEATURES } from '../capabilities/kernel.mjs';
import { SRC, DS, ART } from '../evidence.mjs';
import { has } from '../pick.mjs';
import { inRange } from '../version.mjs';
import { SERVER_LABEL } from './util.mjs';

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
    out.push({ key: 'net.core.somaxconn', value: 4096, why: `Accept-queue limit for listening sockets: 128 by default before Linux 5.4. The proxy and ${SERVER_LABEL[ctx.server]} ask for larger backlogs, which the kernel silently caps at this value.`, evidence: [DS.sysctl, SRC.ipSysctl, ART.kernel] });
    out.push({ key: 'net.ipv4.tcp_max_syn_backlog', value: 4096, why: 'Half-open connection queue to match.', evidence: [SRC.ipSysctl] });
  } else {
    out.push({ comment: `net.core.somaxconn is not set: Linux ${k} already defaults to 4096 (since 5.4).` });
  }
  out.push({ key: 'net.core.netdev_max_backlog', value: 4096, why: 'Packets queued per CPU before the stack processes them (default 1000); only matters at high packet rates, harmless otherwise.', evidence: [DS.sysctl, SRC.ipSysctl] });
  out.push({ key: 'net.ipv4.tcp_fin_timeout', value: 15, why: 'Shortens FIN-WAIT-2 for orphaned connections (default 60 s). It does not shorten TIME-WAIT, which is fixed at 60 s.', evidence: [DS.sysctl, SRC.timeWait, ART.kernel] });
  out.push({ blank: true });
  out.push({ comment: 'Deliberately not set, although the thesis listed them (Table 5.12):' });
  out.push({ comment: `- net.ipv4.tcp_tw_recycle: dropped connections from clients behind NAT${keyExists('net.ipv4.tcp_tw_recycle', k) ? '' : `; it does not exist on Linux ${k} (removed in 4.12)`}.` });
  out.push({ comment: '- net.ipv4.tcp_timestamps = 0: disables PAWS and RTT measurement and makes tcp_tw_reuse ineffective.' });
  out.push({ comment: '- net.ipv4.tcp_tw_reuse: affects outgoing connections only.' });
  out.push({ comment: '- net.ipv4.tcp_rmem / tcp_wmem "4096 87380 16777216": the middle value is below today\u2019s default; autotuning is better.' });
  return out.filter((e) => !e.key || (keyExists(e.key, k) && !NEVER_EMIT.includes(e.key)));
}

/** The scheduler to set, or null when the kernel default is already right. */
export function schedulerChoice(ctx) {
  const k = ctx.a.kernel;
  if (has(KERNEL_FEATURES.legacySchedulersRemoved, k)) return null; // 5.0+: mq-deadline for single-queue, none for NVMe by default
  if (ctx.a.storage === 'nvme') return schedulerExists('none', k) ? null : 'noop';
  return 'deadline'; // CFQ was the 2.6-era default; the thesis chose deadline
}

export function generate(ctx) {
  if (!ctx.linux) return {};
  const files = [{ path: 'etc/sysctl.d/60-rails.conf', format: 'sysctl', body: sysctlEntries(ctx) }];
  const sched = schedulerChoice(ctx);
  if (sched) {
    const rule = `ACTION=="add|change", KERNEL=="sd[a-z]*|vd[a-z]*|nvme[0-9]*n[0-9]*", ATTR{queue/scheduler}="${sched}"`;
    files.push({
      path: 'etc/udev/rules.d/60-io-scheduler.rules', format: 'lines',
      body: [`# ${sched}: on Linux ${ctx.a.kernel} the default is CFQ, which favours interactive desktops; the thesis chose deadline for servers.`, `# see: ${DS.sysctl.url}`, `# see: ${SRC.ioSched.url}`, rule],
      scheduler: sched,
    });
  }
  return { files };
}
