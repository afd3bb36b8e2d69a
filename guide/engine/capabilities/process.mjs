// How each app server lives under systemd: readiness protocol, reload signal, graceful stop signal and time.
// Read through caps.mjs ("cap.*" in the catalog, JSON on the page).
// Sources: Puma docs/systemd.md and docs/restart.md, Unicorn SIGNALS and examples/unicorn@.service,
// Pitchfork docs/SIGNALS.md, Passenger restart guide, systemd.service/systemd.kill.

export const SERVER_PROCESS = {
  // Puma ≥ 5.1 speaks sd_notify itself when NOTIFY_SOCKET is set (READY, RELOADING, STOPPING, WATCHDOG).
  // USR2 = hot restart (re-exec, the listening socket stays open); USR1 = phased restart, impossible with preload_app!.
  puma: { notify: { since: '5.1' }, reload: 'USR2', stopSignal: 'SIGTERM', stopTimeout: 35, killMode: 'mixed' },
  // QUIT = graceful stop (workers finish their request); TERM/INT = immediate. HUP re-reads the config and
  // replaces the workers (application code is not reloaded when preload_app is true).
  unicorn: { notify: null, reload: 'HUP', stopSignal: 'SIGQUIT', stopTimeout: 62, killMode: 'process' },
  pitchfork: { notify: null, reload: null, stopSignal: 'SIGQUIT', stopTimeout: 62, killMode: 'mixed' },
  passenger: { notify: null, reload: 'passenger-config', stopSignal: 'SIGTERM', stopTimeout: 35, killMode: 'control-group' },
  falcon: { notify: null, reload: null, stopSignal: 'SIGTERM', stopTimeout: 35, killMode: 'control-group' },
  thin: { notify: null, reload: null, stopSignal: 'SIGQUIT', stopTimeout: 35, killMode: 'control-group' },
  webrick: { notify: null, reload: null, stopSignal: 'SIGTERM', stopTimeout: 35, killMode: 'control-group' },
  mongrel: { notify: null, reload: null, stopSignal: 'SIGTERM', stopTimeout: 35, killMode: 'control-group' },
};

// Exposure score that `systemd-analyze security` gives the generated web unit (systemd 252, Debian 12), checked by
// tests/wizard/sweep.test.mjs for every distinct unit; systemd labels below 4.0 "OK" and below 2.0 "SAFE".
export const HARDENING = { analyzer: 'systemd 252', maxScore: 4.0 };

// The sandbox of every Ruby unit (systemd.exec): [key, value, catalog id of the reason or '']. Values in braces are
// filled in per bundle: {rw} writable directories, {home} yes/read-only, {caps} capability set.
export const SYSTEMD_SANDBOX = [
  ['NoNewPrivileges', 'yes', 'systemd.sandbox'],
  ['ProtectSystem', 'strict', 'systemd.protect-system'],
  ['ReadWritePaths', '{rw}', 'systemd.rw'],
  ['ProtectHome', '{home}', '{home}'],
  ['PrivateTmp', 'yes', ''],
  ['PrivateDevices', 'yes', ''],
  ['ProtectKernelTunables', 'yes', ''],
  ['ProtectKernelModules', 'yes', ''],
  ['ProtectKernelLogs', 'yes', ''],
  ['ProtectControlGroups', 'yes', ''],
  ['ProtectClock', 'yes', ''],
  ['ProtectHostname', 'yes', ''],
  ['ProtectProc', 'invisible', ''],
  ['RestrictNamespaces', 'yes', ''],
  ['RestrictRealtime', 'yes', ''],
  ['RestrictSUIDSGID', 'yes', ''],
  ['LockPersonality', 'yes', ''],
  ['RemoveIPC', 'yes', ''],
  ['RestrictAddressFamilies', 'AF_UNIX AF_INET AF_INET6 AF_NETLINK', 'systemd.families'],
  ['SystemCallArchitectures', 'native', ''],
  ['SystemCallFilter', '@system-service', 'systemd.syscalls'],
  ['CapabilityBoundingSet', '{caps}', '{caps}'],
  ['UMask', '0027', 'systemd.umask'],
];
