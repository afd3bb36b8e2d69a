// When a suggested change would only write the wizard's preference (severity policy: a note), the doctor shows no
// diff: a diff would copy a wizard number or an assumed answer into the app. It names the preference and says why
// it is a choice instead. Changes made of the app's own values (pool-fix.mjs) and number-free lines (a hook,
// `preload_app!`, a plugin) keep their diff.

// A line's value: what follows its name (Ruby method, nginx directive, YAML key, conf parameter), comments left out.
const valuePart = (l) => String(l).replace(/(^|\s)#.*$/, '').replace(/^\s*[\w.:@-]+\s*[:=]?/, '');

/**
 * Why the suggestion for a setting is the wizard's choice rather than something the app's files imply, or null.
 * lines: the suggested lines; assumes: undetected answers the generated value depends on (index.mjs sensitivity).
 */
export function wizardChoice(lines, assumes = []) {
  if (assumes.length) return `it rests on answers the files do not tell (${assumes.join(', ')}); no change is suggested`;
  if ((lines || []).some((l) => /\d/.test(valuePart(l)))) return 'the number is the wizard\'s, not derived from the app\'s files; no change is suggested';
  return null;
}
