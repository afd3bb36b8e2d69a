// dotenv's files as production reads them (dotenv README, "What other .env* files can I use?"): dotenv-rails loads
// .env.production.local, .env.local, .env.production and .env, and a variable keeps the first value it gets, so
// .env.production.local wins over .env.local over .env.production over .env, and none of them replaces a variable the
// process already has (the image's ENV, Compose's environment, Kamal's env: Dotenv.load does not overwrite). Files
// named for another environment (.env.development, .env.test.local, .env.staging) or as examples (.env.example) are
// not loaded in production. Other environment files (config/app.env, a unit's EnvironmentFile=) keep their order.
export const DOTENV_PRECEDENCE = ['.env.production.local', '.env.local', '.env.production', '.env'];

const base = (path) => String(path).split('/').pop();

/** A dotenv name production does not load: `.env.<anything>` that is not in DOTENV_PRECEDENCE. */
export const otherDotenv = (path) => /^\.env\.[\w.-]+$/.test(base(path)) && !DOTENV_PRECEDENCE.includes(base(path));

/** The app locks dotenv (dotenv-rails, or dotenv ≥ 3 with its Railtie): its load order then applies. */
export const usesDotenv = (files) => files.some((f) => f.kind === 'gemfile-lock' && !f.problem && f.settings.some((s) => s.name === 'dotenv-rails' || s.name === 'dotenv'));

/**
 * Environment files split for envOf, which sets each in turn (a later one overrides): `dotenv`, dotenv's own names
 * from the lowest precedence (.env) to the highest, to be set before the process's environment; `plain`, the others
 * as given. Names production does not load are left out. Without dotenv locked every file is plain, as given.
 */
export function splitDotenv(envFiles, dotenvLocked) {
  const loaded = envFiles.filter((f) => !otherDotenv(f.path));
  if (!dotenvLocked) return { dotenv: [], plain: loaded };
  const rank = (f) => DOTENV_PRECEDENCE.indexOf(base(f.path));
  return { dotenv: loaded.filter((f) => rank(f) >= 0).sort((a, b) => rank(b) - rank(a)), plain: loaded.filter((f) => rank(f) < 0) };
}
