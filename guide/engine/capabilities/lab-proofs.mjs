// What the project's lab boots (issue 24), per choice: the test under tests/wizard/ that booted the reference app
// with the bundle's server, database or job backend on Debian 13, or, for a choice the lab cannot boot, the reason
// (catalog "ops.readme.unbooted.<reason>"). The README of a Debian bundle states it part by part
// (readme-ops.mjs), so a MySQL bundle never claims the boot of its PostgreSQL sibling. Read through caps.mjs.
export const LAB_PROOFS = {
  server: {
    puma: 'lab-default-bundle', unicorn: 'reload-new-code', pitchfork: 'lab-pitchfork-deploy', passenger: 'lab-passenger-bundle',
    falcon: 'lab-falcon-thin', thin: 'lab-falcon-thin', webrick: 'lab-webrick-bundle',
  },
  database: { postgresql: 'lab-default-bundle', mariadb: 'lab-mariadb-bundle', sqlite: 'lab-sqlite-thruster' },
  jobs: { solid_queue: 'lab-default-bundle', sidekiq: 'lab-sidekiq-bundle', good_job: 'lab-goodjob-dj', delayed_job: 'lab-goodjob-dj' },
  // Debian's archive has no MySQL server (MariaDB only); Mongrel builds on no Ruby the lab has (server-rails.mjs).
  unbooted: { mysql: 'no-package', mongrel: 'no-ruby' },
};
