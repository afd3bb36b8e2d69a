// Suggested edits to YAML files must leave valid YAML (issue 25 trial: `  concurrency: 3` was inserted as a
// list item's sibling in sidekiq.yml). ERB tags are replaced first as read-yaml.mjs's stripErb does (a
// value placeholder; a whole-line tag left out).
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyDiff } from './helpers.mjs';
import { stripErb } from '../../guide/check/read-yaml.mjs';

/** Every finding of `report` with a diff on a .yml file, applied to the file under dir: [{file, line, error}] for those that do not parse. */
export function invalidYamlSuggestions(report, dir) {
  const bad = [];
  // The file a diff patches is the one its header names (a pool fix reported on sidekiq.yml patches database.yml).
  const target = (f) => /^\+\+\+ b\/(.+)$/m.exec(f.diff)?.[1] || f.file;
  for (const f of report.findings.filter((x) => x.diff && /\.ya?ml$/.test(target(x)))) {
    const text = readFileSync(join(dir, target(f)), 'utf8');
    const applied = stripErb(applyDiff(text, f.diff).text, f.file).text;
    try { parse(applied, { uniqueKeys: false }); } catch (e) { bad.push({ file: target(f), line: f.line, setting: f.setting, error: e.message.split('\n')[0] }); }
  }
  return bad;
}
