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

const shQuote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

// Shell lines that run README step n's blocks as written (in directory `cd` when given) and print stepN=ok.
export function stepScript(steps, n, { cd } = {}) {
  const run = `bash -euo pipefail -c ${shQuote(steps.get(n).join('\n'))}`;
  return `echo "--- README step ${n}"\n${cd ? `(cd ${cd} && ${run})` : run}\nprintf '\\nstep${n}=ok\\n'`;
}
