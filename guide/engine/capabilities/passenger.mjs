// Passenger directive names per Passenger version (config-facts §4.4; Passenger Apache users guide history).
// Legacy Rails* names are still accepted by Passenger 6 as aliases; modern names are used from 4.0.
export const PASSENGER_APACHE = {
  PassengerMaxPoolSize: {},
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
