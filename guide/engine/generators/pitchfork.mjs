// config/pitchfork.rb (Shopify Pitchfork; Unicorn-derived, reforking on Linux >= 3.4).
import { SRC } from '../evidence.mjs';
import { KERNEL_FEATURES } from '../capabilities/kernel.mjs';
import { has } from '../pick.mjs';
import { listenArg } from './unicorn.mjs';

export const id = 'pitchfork';

export function generate(ctx) {
  if (ctx.server !== 'pitchfork') return {};
  const u = ctx.upstreams[0];
  const refork = ctx.linux && has(KERNEL_FEATURES.childSubreaper, ctx.a.kernel);
  const body = [
    { call: 'worker_processes', args: [ctx.processes], why: `${ctx.processes} workers; like Unicorn each serves one request at a time.`, evidence: [SRC.pitchfork] },
    { call: 'listen', args: [listenArg(u), { hash: { backlog: 1024 } }], why: 'Same address as the proxy upstream.', evidence: [SRC.pitchfork] },
    { call: 'timeout', args: [30] },
  ];
  if (refork) {
    body.push({ call: 'refork_after', args: [[50, 100, 1000]], why: 'Promote a warmed-up worker as the new template after 50, 100, then every 1000 requests, so workers share more memory.', evidence: [SRC.pitchforkRefork] });
  } else {
    body.push({ comment: 'Reforking is left off: it needs PR_SET_CHILD_SUBREAPER (Linux 3.4+).' });
  }
  return { files: [{ path: 'config/pitchfork.rb', format: 'ruby', body }] };
}
