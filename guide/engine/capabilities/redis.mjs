// Redis facts the bundle's etc/redis/rails.conf depends on, per Redis version (the version comes from the release's
// row in family-commands.mjs DISTRO_RELEASES: README step 3 installs the distribution's Redis). Read through caps.mjs.
//
// bind: the '-' prefix ("-::1": bind if the address exists, skip it otherwise) is Redis 6.2's (redis/redis#8405;
// Redis 6.2 release notes: "Add support for optional bind addresses ('-' prefix)"); 6.2's default redis.conf
// reads `bind 127.0.0.1 -::1`. Redis 6.0 (Ubuntu 22.04) reads "-::1" as an address, fails to bind it and does
// not start. Before 6.2 the bundle binds IPv4 loopback only, which is all REDIS_URL (127.0.0.1) needs; a release
// the table does not know gets that line too, since every Redis accepts it.
export const REDIS_FACTS = {
  bind: [
    { since: '6.2', value: '127.0.0.1 -::1' },
    { since: '0', value: '127.0.0.1' },
  ],
  // The Redis a current Sidekiq needs: Sidekiq 7.0 refuses Redis below 6.2 and Sidekiq 8.0.1 requires 7.0 ("Relax
  // Redis requirement to 7.0 for compatibility with AWS and Ubuntu 24.04", sidekiq/sidekiq Changes.md 8.0.1). The
  // wizard asks no Sidekiq version and a Rails 8.1 app that adds Sidekiq today gets 8.x, so the bundle needs 7.0:
  // Ubuntu 22.04 (6.0) and RHEL 9 (6.2) ship older ones, found by the SRE trial (24b, D2).
  sidekiqMin: '7.0',
};
