// Shell blocks of a generated bundle README, for the lab proofs that run them as written.

// The ```sh blocks under each "### N. Title" heading of the README, keyed by N.
export function readmeSteps(markdown) {
  const steps = new Map();
  let step = null;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const h = /^### (\d+)\. /.exec(lines[i]);
    if (h) { step = Number(h[1]); continue; }
    if (step !== null && lines[i] === '```sh') {
      const code = [];
      for (i++; i < lines.length && lines[i] !== '```'; i++) code.push(lines[i]);
      steps.set(step, [...(steps.get(step) || []), code.join('\n')]);
    }
  }
  return steps;
}
