// Runs an async function over a list with a few workers at once (for example two browser pages visiting the
// sitemap's URLs), and returns the results in the list's order, as a loop would. After the first error no worker
// takes a new item; once the running ones have finished, the error of the earliest item is thrown, so a failure
// reads the same as in a sequential loop.
export async function inOrder(items, workers, fn) {
  const results = new Array(items.length);
  const errors = [];
  let next = 0;
  const worker = async (w) => {
    while (next < items.length && !errors.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i], w, i);
      } catch (error) {
        errors.push({ i, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, (_, w) => worker(w)));
  if (errors.length) throw errors.sort((a, b) => a.i - b.i)[0].error;
  return results;
}
