// SARIF 2.1.0 for GitHub code scanning: one result per finding, rules = the finding kinds,
// locations relative to the checked directory (uriBaseId %SRCROOT%), evidence as help links.
const RULES = {
  differs: 'A setting differs from what the wizard generates for the detected answers',
  missing: 'A setting the wizard generates is not set',
  obsolete: 'A setting the detected version no longer reads, or removed',
  inconsistent: 'Two files disagree (socket, pool and threads, connection limit, memory, duplicates)',
  unreadable: 'An input file could not be read safely',
};
const LEVEL = { error: 'error', warning: 'warning', note: 'note' };

export function reportSarif(r, { toolVersion = '1.0.0', informationUri = 'https://github.com/' } = {}) {
  const rules = Object.entries(RULES).map(([id, text]) => ({ id, name: id, shortDescription: { text }, helpUri: informationUri }));
  const index = Object.fromEntries(rules.map((x, k) => [x.id, k]));
  // Paths inside the checked repository are relative (uriBaseId %SRCROOT%, as code scanning expects);
  // files elsewhere (/etc/nginx/…) get absolute file: URIs.
  const loc = (file, line) => {
    const f = String(file).replace(/\\/g, '/');
    const artifactLocation = f.startsWith('/') ? { uri: `file://${encodeURI(f)}` } : { uri: encodeURI(f.replace(/^\.\//, '')), uriBaseId: '%SRCROOT%' };
    return { physicalLocation: { artifactLocation, ...(line > 0 ? { region: { startLine: line } } : {}) } };
  };
  const results = r.findings.map((f) => ({
    ruleId: f.rule,
    ruleIndex: index[f.rule],
    level: LEVEL[f.severity],
    message: { text: [`${f.setting ? `${f.setting}: ` : ''}${f.message}`, f.reason ? `Why: ${f.reason}` : '', ...(f.evidence || []).map((e) => `See: ${e.label} ${e.url}`), f.diff ? `Suggested change:\n${f.diff}` : ''].filter(Boolean).join('\n') },
    locations: [loc(f.file, f.line)],
    ...(f.related ? { relatedLocations: f.related.map((x, k) => ({ id: k, ...loc(x.file, x.line) })) } : {}),
    partialFingerprints: { settingKey: `${f.rule}/${f.file}/${f.setting || ''}` },
  }));
  for (const p of r.problems) {
    results.push({ ruleId: 'unreadable', ruleIndex: index.unreadable, level: 'error', message: { text: `${p.message} (${p.code}). Fix: ${p.fix}` }, locations: [loc(p.file, p.line)] });
  }
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'scaling-rails-doctor', version: toolVersion, informationUri, rules } }, results }],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
