// Search over the build-time index (search.json): pure functions, no DOM, so Node tests import
// this file directly. Every query word must match the start of a word in some field; matches
// in the title count most, then the summary, the topic and the text excerpt.

const WEIGHTS = { title: 10, summary: 4, topic: 3, text: 1 };
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-case, strip accents: "Gonçalo" → "goncalo". */
export function normalize(s) {
  return String(s ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Words of a string, normalised, in order (duplicates kept). */
export function tokenize(s) {
  return normalize(s).match(WORD) ?? [];
}

/** Precompute the word lists of every index item once, after the index is fetched. */
export function prepare(items) {
  return items.map((item) => ({
    item,
    fields: {
      title: tokenize(item.title),
      summary: tokenize(item.summary),
      topic: tokenize(`${item.topic ?? ''} ${item.topic_label ?? ''}`),
      text: tokenize(item.text),
    },
  }));
}

function fieldScore(words, token) {
  let best = 0;
  for (const w of words) {
    if (w === token) return 2;
    if (best === 0 && w.startsWith(token)) best = 1;
  }
  return best;
}

/**
 * Rank prepared items for a query. Returns [{item, score}] best first, at most `limit`.
 * An item matches only if every query word matches some field (AND semantics).
 */
export function search(prepared, query, { limit = 50 } = {}) {
  const tokens = [...new Set(tokenize(query))];
  if (tokens.length === 0) return [];
  const hits = [];
  for (const entry of prepared) {
    let score = 0;
    let all = true;
    for (const token of tokens) {
      let tokenScore = 0;
      for (const [field, weight] of Object.entries(WEIGHTS)) {
        tokenScore += weight * fieldScore(entry.fields[field], token);
      }
      if (tokenScore === 0) { all = false; break; }
      score += tokenScore;
    }
    if (all) hits.push({ item: entry.item, score });
  }
  hits.sort((a, b) => b.score - a.score
    || (a.item.type === b.item.type ? 0 : a.item.type === 'article' ? -1 : 1)
    || String(a.item.title).localeCompare(String(b.item.title)));
  return hits.slice(0, limit);
}

/** Only site-relative URLs from the index become links. */
export function safeUrl(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : null;
}
