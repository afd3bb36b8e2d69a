// A variable the wizard's env file sets (config/ruby.env, config/jobs.env, secrets.env) that the app's env file
// does not. The wizard's reason ("read by config/database.yml") is about the wizard's own files; the app's may read
// the variable somewhere else or not at all. So the note is given only where the app's own files read it
// (env-reads.mjs), and names those lines; where nothing of the app reads it, setting it changes nothing and the
// doctor says nothing (the sixth blind trial: planningalerts' .env.production).
import { sameValue } from './normalize.mjs';
import { insertAfter } from './diff.mjs';
import { wizardChoice } from './choice.mjs';

// Variables every production deployment sets (the app's environment name, the port a platform assigns): an env
// file the app loads for its environment cannot choose that environment.
export const DEPLOY_SET = new Set(['RAILS_ENV', 'RACK_ENV', 'PORT']);
const SHOWN_READS = 3;

const readText = (r) => `${r.file}:${r.line} (\`${r.code}\`)`;

/**
 * envMissing(g, gf, {reads, env, target, assumes, envFiles}) → a `missing` finding (note) or null.
 * g: the generated setting; gf: its generated file; reads: appEnvReads(files); env: envOf(files) (what other files
 * set for the process); target: compare.mjs insertionPoint() in the app's env file; envFiles: the env files compared.
 */
export function envMissing(g, gf, { reads, env, target, assumes = [], envFiles = [target.f.path] }) {
  const key = g.key;
  const gv = g.value ?? '';
  const where = reads.get(key) || [];
  if (DEPLOY_SET.has(key) || !where.length || env.has(key)) return null;
  // Every read falls back to the wizard's own value: unset is the same thing.
  if (where.every((r) => r.fallback !== undefined && sameValue('env', key, r.fallback, gv))) return null;
  const more = where.length > SHOWN_READS ? ` and ${where.length - SHOWN_READS} more` : '';
  const readers = `${where.slice(0, SHOWN_READS).map(readText).join(', ')}${more}`;
  const f = target.f;
  const notIn = envFiles.join(', ');
  const related = where.slice(0, SHOWN_READS).map((r) => ({ file: r.file, line: r.line }));
  const common = { rule: 'missing', severity: 'note', file: f.path, line: target.line, anchor: target.anchor, found: null, expected: String(gv), related };
  const reason = `The app reads ${key} at ${readers}. In the wizard's ${gf.path}: ${g.why || 'set for these answers'}`;
  if (String(gv) === '') {
    // A secret the wizard leaves empty for the operator: never suggested into a file that may be under version control.
    return { ...common, reason, diff: null, message: `${key} is not set in ${notIn}, and the app reads it (${readers}); the wizard keeps it in ${gf.path}, outside the app: set it where the app's secrets are kept` };
  }
  const line = `${key}=${gv}`;
  const choice = wizardChoice([line], assumes);
  return {
    ...common, reason,
    message: `${key} is not set in ${notIn}, and the app reads it (${readers}); the wizard's preference for these answers is ${line}${choice ? `, a choice: ${choice}` : ''}`,
    diff: f.text && !target.noDiff && !choice ? insertAfter(f.path, f.text, target.line, [line], target.indent) : null,
  };
}
