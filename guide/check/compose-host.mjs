// The wizard's `sslmode: require` / `ssl_mode: required` is advice for a database host across a network the app
// does not own. A database.yml host that is a Compose service of the same project (yacs: `host: postgres`, the stock
// postgres image, which has no TLS) is reached over the project's own container network: the suggested line would
// break the connection, so no finding is made there (eighth blind trial, issue 25).

const TLS_KEYS = new Set(['sslmode', 'ssl_mode']);

/** Names a container of the Compose files answers to: service names, container_name, hostname, network aliases. */
function composeNames(files) {
  const names = new Set();
  for (const f of files.filter((x) => x.kind === 'compose' && !x.problem)) {
    for (const s of f.settings) {
      const p = s.path || [];
      if (p[0] !== 'services' || p.length < 2) continue;
      names.add(p[1]);
      if (p.length === 3 && (p[2] === 'container_name' || p[2] === 'hostname') && typeof s.value === 'string') names.add(s.value);
      if (p[2] === 'networks' && p[4] === 'aliases' && typeof s.value === 'string') names.add(s.value);
    }
  }
  return names;
}

/** The production database host of database.yml (the primary one), when the file says it literally. */
function productionHost(files) {
  const yml = files.find((f) => f.kind === 'database-yml' && !f.problem);
  const prod = yml ? yml.settings.filter((s) => s.path?.[0] === 'production' && s.key === 'host') : [];
  const h = prod.find((s) => s.path.length === 2 || s.path[1] === 'primary') || prod[0];
  return h && h.known && typeof h.value === 'string' ? h.value : null;
}

/** Drops database.yml TLS findings when production's host is a Compose service of the files read. */
export function dropComposeTls(findings, files) {
  const host = productionHost(files);
  if (!host || !composeNames(files).has(host)) return findings;
  return findings.filter((x) => !(TLS_KEYS.has(x.setting) && /(^|\/)database\.yml$/.test(x.file)));
}
