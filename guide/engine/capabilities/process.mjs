// How each app server lives under systemd: readiness protocol, reload signal, graceful stop signal and time.
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
