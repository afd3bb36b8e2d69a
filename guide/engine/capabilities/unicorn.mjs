// Unicorn::Configurator names per Unicorn version: since inclusive. A name the running Unicorn lacks raises
// NoMethodError while the master evaluates unicorn.rb (Configurator#reload instance_evals the file), so the master
// never starts. check_client_connection first appears in Unicorn 4.5.0 (NEWS, "unicorn 4.5.0 - check_client_connection
// option", yhbt.net/unicorn/NEWS.html; absent from v1.1.7's lib/unicorn/configurator.rb), found by the SRE trial of
// a Rails 2.3 + Unicorn 1.1 bundle.
export const UNICORN_DSL = {
  check_client_connection: { since: '4.5' },
};
