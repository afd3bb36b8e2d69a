// Answers that name a place on the host or an account (app_root, deploy_user) are checked against
// capabilities/deploy-targets.mjs after their format. The result is a reason code; its words are in the catalog
// ("policy.*", catalog-questions.mjs) and name no raw value, since the page shows them for shared links.
import { APP_ROOT_PARENTS, RESERVED_USERS, RESERVED_USER_PREFIXES } from './capabilities/deploy-targets.mjs';
import { t } from './text.mjs';

const USER_DIR = /^[a-z_][a-z0-9_-]{0,31}$/;

function appRootProblem(path) {
  const parts = path.split('/').filter(Boolean);
  for (const parent of APP_ROOT_PARENTS) {
    const pp = parent.split('/').filter(Boolean);
    if (pp.every((x, i) => (x === '*' ? USER_DIR.test(parts[i] || '') : parts[i] === x))) return parts.length > pp.length ? null : 'shared';
  }
  return 'outside';
}

/** Why `value` (already of the right format) is not allowed for `key`: a reason code, or null. */
export function answerProblem(key, value) {
  if ((key === 'app_root' || key === 'ruby_path') && value.includes('..')) return 'dots';
  if (key === 'app_root') return appRootProblem(value);
  if (key === 'deploy_user' && (RESERVED_USERS.includes(value) || RESERVED_USER_PREFIXES.some((p) => value.startsWith(p)))) return 'reserved';
  return null;
}

export const reasonText = (code) => t(`policy.${code}`) || code;
// Only the checked keys have such words (asking the catalog for others would record them as missing).
export const allowedText = (key) => (key === 'app_root' || key === 'deploy_user' ? t(`q.${key}.allowed`) : '');
