// How each app server lives under systemd: how it starts (`type`, `daemonize`, `pidFile`), how it stops gracefully
// (`stopSignal`, `stopTimeout`, `killMode`) and what a deploy sends it (`reload`). Read through caps.mjs ("cap.*" in
// the catalog, JSON on the page); generators/systemd.mjs builds the unit and generators/readme-ops.mjs the deploy
// step from these rows only.
//
// `reload`: {signal | command, newCode: does it load the new application code?, handover?, mainPidOnly? (only the
// main process takes the signal and it writes no PID file: no reload when Thruster is the main process), keepsGems?
// (the main process is not re-executed: deploy.sh restarts instead when Gemfile.lock changed), dropsAccepted? (the
// reload stops old workers that may close a connection they accepted before reading its request: nginx retries it,
// generators/nginx.mjs), sources?}
// or null (no reload:
// deploy = `systemctl restart`, connections are refused while the server boots). `deploy`: what README step 7 does;
// `ownWords`: README explains it with ops.readme.deploy.<deploy>.<server> instead of the general text. `ownLogs`: a
// daemonizing server writes the app's STDOUT/STDERR to these files under log/ (its config), not to journald.
//
// Sources: Puma docs/systemd.md and docs/restart.md; Unicorn SIGNALS ("USR2 — reexecute the running binary… QUIT the
// old master once the new one is up"; HUP with preload_app true does not reload application code) and
// examples/unicorn.conf.rb (the before_fork hook that QUITs the ".oldbin" master); Pitchfork
// docs/MIGRATING_FROM_UNICORN.md ("USR2 has been repurposed for reforking… Reloading is not a supported feature of
// Pitchfork") and docs/SIGNALS.md; Passenger restart guide; systemd.service ("Type=forking… PIDFile=": when the main
// process exits, systemd re-reads the PID file and follows the new main process if it belongs to the unit, which is
// how a re-executed Unicorn master, a child of the old one, stays the service's main process); systemd.kill.
export const SERVER_PROCESS = {
  // Puma ≥ 5.1 speaks sd_notify itself when NOTIFY_SOCKET is set (READY, RELOADING, STOPPING, WATCHDOG).
  // USR2 = hot restart: exec() in the same PID (the main PID never changes), the listening socket stays open and new
  // requests wait in its backlog; it loads new code. USR1 (phased restart) is impossible with preload_app!.
  // reexec: the reload boots the app again in the same PID before the next WATCHDOG=1 (puma/puma#3329, #3675).
  puma: { type: 'exec', notify: { since: '5.1' }, reload: { signal: 'USR2', newCode: true, reexec: true }, deploy: 'reload', stopSignal: 'SIGTERM', stopTimeout: 35, killMode: 'mixed' },
  // preload_app true: HUP reloads unicorn.rb but never the application. USR2 re-executes a new master (a child of the
  // old one, inheriting the listeners) which loads the new code; the new master's before_fork hook sends QUIT to the
  // old one once it forks its workers. The old master renames its PID file to unicorn.pid.oldbin and the new one
  // writes unicorn.pid before loading the app, so the file names the new master when the old one exits. If the new
  // code fails to boot, the old master keeps serving and renames the file back (Unicorn SIGNALS).
  unicorn: {
    type: 'forking', daemonize: '-D', pidFile: 'tmp/pids/unicorn.pid',
    // handoverWait: seconds deploy.sh waits for the new master to replace the old one (its app boot included).
    reload: { signal: 'USR2', newCode: true, handover: 'before_fork QUIT to the .oldbin master', handoverWait: 120 }, deploy: 'reload', ownWords: true,
    stopSignal: 'SIGQUIT', stopTimeout: 62, killMode: 'mixed', ownLogs: 'unicorn.stdout.log and unicorn.stderr.log',
  },
  // No reload: USR2 reforks from a warm worker (the same code); Pitchfork's docs say to remove ExecReload. Its only
  // side-by-side option, `reuseport` (TCP only), may drop connections when an instance stops (docs/CONFIGURATION.md),
  // so a single host restarts (tests/wizard/lab-pitchfork-deploy.test.mjs measures the refused requests).
  pitchfork: { type: 'exec', reload: null, deploy: 'restart', ownWords: true, stopSignal: 'SIGQUIT', stopTimeout: 62, killMode: 'mixed' },
  // Open-source Passenger's restart-app stops every process and boots the new code; requests queue meanwhile
  // (tests/wizard/lab-passenger-bundle.test.mjs: none failed). README says so in its own words.
  passenger: { type: 'exec', reload: { command: 'passenger-config restart-app', newCode: true }, deploy: 'reload', ownWords: true, stopSignal: 'SIGTERM', stopTimeout: 35, killMode: 'control-group' },
  // Falcon's controller is async-container's (async-container lib/async/container/controller.rb, notify/socket.rb;
  // Falcon's deployment guide runs it as Type=notify): READY=1 once every child is ready, RELOADING=1 on HUP, no
  // watchdog pings. HUP = Controller#restart, a blue-green restart: a new set of children is forked and boots the app
  // while the old set keeps answering on the same bound socket, then the old set is stopped gracefully. Without
  // --preload each child loads config.ru itself, so the new set runs the new code (with --preload the app would be
  // loaded once in the controller and HUP would fork the old code again). The controller is not re-executed: the gems
  // it loaded at start stay (a changed Gemfile.lock needs a restart). TERM to the controller = graceful stop: it
  // interrupts the children (they drain) and waits --graceful-stop seconds (falcon serve's default is 1 s) before
  // SIGKILL; KillMode=mixed so the children hear it from their controller, which no longer respawns them.
  // The old set's graceful stop is not a drain: the listening socket is shared, and SIGINT makes each old child's
  // scheduler cancel every task at once (async Scheduler#run_loop → stop). A request already read finishes
  // (async-http's HTTP/1 server wraps it in defer_stop), but a connection the child accepted whose request it has not
  // read yet is closed unanswered (async-container Group#stop, falcon Service::Server#setup, io-endpoint accept),
  // and so is every idle kept-alive connection. dropsAccepted: the nginx site keeps no idle connections to Falcon
  // and lists the socket again as a backup, so a request whose connection fails is passed on to a new worker
  // (with one server nginx tries a fresh connection once and answers 502).
  // tests/wizard/lab-falcon-thin.test.mjs proves the reload under load with Falcon 0.57 in the lab.
  falcon: {
    type: 'exec', notify: { since: '0.44' }, watchdog: false,
    reload: { signal: 'HUP', newCode: true, mainPidOnly: true, keepsGems: true, dropsAccepted: true, sources: ['asyncContainer', 'falconDeploy'] }, deploy: 'reload', ownWords: true,
    stopSignal: 'SIGTERM', stopTimeout: 35, gracefulStop: 30, killMode: 'mixed',
  },
  // Thin: `thin start -C config/thin.yml` is always Thin's cluster controller (a config file selects it: runner.rb
  // cluster?), which forces daemonize ("Cluster can only contain daemonized servers", controllers/cluster.rb), starts
  // every server in the background and exits. Under Type=exec systemd would take that exit for the end of the
  // service and stop the servers, so Type=forking with server 0's PID file as the main PID (Thin inserts the server
  // number: thin.0.pid, or thin.PORT.pid on TCP); systemd waits for the file. The other servers are supervised only
  // as members of the cgroup: KillMode=control-group sends every one of them QUIT, Thin's graceful stop (finish the
  // connections, up to its timeout). HUP makes a daemonized server stop, start a copy of itself and exit: a new PID
  // for the same socket with a gap between, so the bundle has no ExecReload; a deploy is `systemctl restart`. Each
  // server writes its PID file before it loads the app, so `systemctl start` returns while Rails still boots:
  // bootWait = seconds the README's and deploy.sh's /up checks retry (the lab measured 10–20 s on a busy machine).
  // tests/wizard/lab-falcon-thin.test.mjs boots Thin 2.0.1 this way in the lab.
  thin: { type: 'forking', pidFile: 'tmp/pids/thin.{first}.pid', bootWait: 60, reload: null, deploy: 'restart', ownWords: true, stopSignal: 'SIGQUIT', stopTimeout: 35, killMode: 'control-group', ownLogs: 'thin.N.log (one per server)' },
  // WEBrick through `rails server -u webrick`: Type=exec returns once the command is started, while Rails still boots
  // (WEBrick speaks no sd_notify), so the README's and deploy.sh's /up checks retry bootWait seconds, as for Thin
  // (tests/wizard/lab-webrick-bundle.test.mjs: the default 5 retries failed before the app answered).
  webrick: { type: 'exec', bootWait: 60, reload: null, deploy: 'restart', stopSignal: 'SIGTERM', stopTimeout: 35, killMode: 'control-group' },
  // Mongrel (Rails 2.x only, server-rails.mjs): `mongrel_rails cluster::start` runs `mongrel_rails start -d` per port
  // and exits; each member writes its PID file with the port inserted (mongrel_cluster's port_pid_file:
  // mongrel.pid → mongrel.8000.pid). As for Thin, systemd follows the first member's file and the others are members
  // of the cgroup (KillMode=control-group: TERM to every one, Mongrel's graceful stop). No reload: a deploy restarts.
  mongrel: { type: 'forking', pidFile: 'tmp/pids/mongrel.{first}.pid', bootWait: 60, reload: null, deploy: 'restart', stopSignal: 'SIGTERM', stopTimeout: 35, killMode: 'control-group', ownLogs: 'mongrel.PORT.log (one per member)' },
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

// What a unit runs, from the words of its ExecStart: the web server (rails-app.service) or a job runner
// (rails-jobs@.service). --check pairs a user's unit with the generated unit of the same role, so a jobs unit's
// settings are never suggested for a web unit (Puma traps no TSTP, Sidekiq's quiet signal). Jobs first:
// `bundle exec rake jobs:work` is Delayed Job, not a server. Neither → compared with both, as before.
export const UNIT_ROLES = [
  { role: 'jobs', exec: /(^|[\s/'"])(sidekiq|sidekiqswarm|bin\/jobs|solid_queue:start|good_job|jobs:work|delayed_job|resque:work|rake\s+resque|shoryuken)(\s|$|['"])/ },
  { role: 'web', exec: /(^|[\s/'"])(puma|unicorn|pitchfork|passenger|falcon|thrust|rackup|iodine)(\s|$|['"])|\brails\s+(s|server)\b/ },
];
