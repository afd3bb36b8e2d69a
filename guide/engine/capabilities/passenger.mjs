// Passenger directive names per Passenger version (config-facts §4.4; Passenger Apache users guide history).
// Legacy Rails* names are still accepted by Passenger 6 as aliases; modern names are used from 4.0.
// Contexts are Passenger's own (src/ruby_supportlib/phusion_passenger/apache2/config_options.rb): PassengerMaxPoolSize
// and PassengerPreStart are :global (server config, outside any VirtualHost); the others are per application.
export const PASSENGER_APACHE = {
  PassengerMaxPoolSize: {},
  // PassengerMinInstances keeps processes once they exist but starts none: Passenger's guide says to combine it
  // with PassengerPreStart to have them at Apache's start (users guide, PassengerMinInstances).
  PassengerPreStart: { since: '3.0' },
  // Without it Passenger runs the app with PassengerDefaultRuby (the Ruby Passenger was installed with).
  PassengerRuby: { since: '4.0' }, // per application from 4.0 (before: server-wide only)
  // PassengerRuby may name a wrapper script that sets environment variables and then execs Ruby; Passenger runs it as
  // the app's user (PassengerUser) to start the app (Passenger's "About environment variables" guide, and its
  // PassengerRuby reference). The bundle uses one to read the secrets file, so they never enter Apache's own
  // environment, which SetEnv or an EnvironmentFile on Apache's unit would put them in (every Apache child, CGI
  // script and module could read them): an SRE trial finding.
  PassengerUser: { since: '3.0' },
  PassengerGroup: { since: '3.0' },
  // Action Cable: its own process group whose processes take unlimited concurrent requests (Passenger's Action
  // Cable integration guide); open-source Passenger otherwise routes one request at a time to a process, and a
  // WebSocket holds its request for the connection's whole life.
  PassengerAppGroupName: { since: '4.0' },
  // In 6.0's option table; the 5.x release that added it was not checked, so older versions do not get it.
  PassengerForceMaxConcurrentRequestsPerProcess: { since: '6.0' },
  RailsEnv: {},
  RailsSpawnMethod: {},
  RailsAppSpawnerIdleTime: {},
  PassengerAppRoot: { since: '3.0' },
  PassengerMinInstances: { since: '3.0' }, // documented with the 2.9/3.0 series
  PassengerAppEnv: { since: '4.0' },
  PassengerSpawnMethod: { since: '4.0' },
  PassengerMaxPreloaderIdleTime: { since: '4.0' },
};

export const PASSENGER_FACTS = {
  standalone: { since: '3.0' }, // `passenger start`
};

// Passenger Standalone's command-line options the unit uses (Standalone configuration reference). The builtin engine
// (5.0+) serves through Passenger's own core: the default nginx engine is a separate binary that a distribution's
// Passenger lacks (Debian 13's `passenger start` tries to download it, then to compile it from source, and fails;
// seen in the project's lab), and nginx in front does what that engine would do.
export const PASSENGER_STANDALONE = {
  engine: { since: '5.0', value: 'builtin' },
  ruby: { since: '5.0' }, // --ruby: the Ruby that runs the app, as PassengerRuby does inside Apache
};
