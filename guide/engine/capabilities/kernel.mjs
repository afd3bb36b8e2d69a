// Linux kernel capabilities as data (config-facts §7). since inclusive, until exclusive.

// Read through caps.mjs ("cap.sysctl-keys", "cap.sysctl-never" in catalog-versions.mjs): the page gets them as JSON
// with the words. default: the kernel's value where it is one figure (net.core.somaxconn's changed in 5.4:
// KERNEL_FEATURES.somaxconn4096Default below).
export const SYSCTL_KEYS = [
  { key: 'net.core.somaxconn', since: '2.2' },
  { key: 'net.core.netdev_max_backlog', since: '2.2', default: 1000 },
  { key: 'net.core.rmem_max', since: '2.2' },
  { key: 'net.core.wmem_max', since: '2.2' },
  { key: 'net.ipv4.tcp_rmem', since: '2.2' },
  { key: 'net.ipv4.tcp_wmem', since: '2.2' },
  { key: 'net.ipv4.tcp_max_syn_backlog', since: '2.2' },
  { key: 'net.ipv4.tcp_fin_timeout', since: '2.2', default: 60 },
  { key: 'net.ipv4.tcp_timestamps', since: '2.2', default: 1, harmfulValues: ['0'] },
  { key: 'net.ipv4.tcp_tw_reuse', since: '2.4' },
  { key: 'net.ipv4.tcp_tw_recycle', since: '2.4', until: '4.12', harmfulValues: ['1'] },
  { key: 'net.ipv4.tcp_orphan_retries', since: '2.2', default: 8 },
  { key: 'net.ipv4.ip_local_port_range', since: '2.2' },
  { key: 'fs.file-max', since: '2.2' },
];

// Keys that must never be emitted whatever the kernel (harmful even where they exist).
export const NEVER_EMIT = ['net.ipv4.tcp_tw_recycle', 'net.ipv4.tcp_timestamps'];

export const IO_SCHEDULERS = [
  { name: 'noop', until: '5.0' },
  { name: 'deadline', until: '5.0' },
  { name: 'cfq', until: '5.0' },
  { name: 'mq-deadline', since: '4.11' },
  { name: 'none', since: '4.11' },
  { name: 'kyber', since: '4.12' },
  { name: 'bfq', since: '4.12' },
];

export const KERNEL_FEATURES = {
  somaxconn4096Default: { since: '5.4' },
  childSubreaper: { since: '3.4' }, // PR_SET_CHILD_SUBREAPER, needed by Pitchfork reforking
  legacySchedulersRemoved: { since: '5.0' },
};
