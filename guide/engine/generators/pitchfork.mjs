// config/pitchfork.rb (Shopify Pitchfork; Unicorn-derived, reforking on Linux >= 3.4).
import { SRC } from '../evidence.mjs';
import { KERNEL_FEATURES } from '../caps.mjs';
import { has } from '../pick.mjs';
import { listenArg } from './unicorn.mjs';
import { t } from '../text.mjs';
import { APPLIES } from './applies.mjs';
import { serverRequestTimeout } from './edge.mjs';
import { W } from '../rules.mjs';
import { lt } from '../version.mjs';

export const id = 'pitchfork';

// Rules about this generator's own server or proxy (moved from rules.mjs: their code loads with this chunk).
function pitchforkRequirements(ctx) {
  if (ctx.server !== 'pitchfork') return null;
  if (lt(ctx.lang, '2.5')) return W('pitchfork-needs-ruby-2-5', 'error', {}, [SRC.pitchfork]);
  if (!ctx.linux || lt(ctx.a.kernel, '3.4')) return W('pitchfork-reforking-needs-linux', 'warning', {}, [SRC.pitchforkRefork]);
  return null;
}

export function generate(ctx) {
  if (!APPLIES.pitchfork(ctx)) return {};
  const warnings = [pitchforkRequirements(ctx)].filter(Boolean);
  const u = ctx.upstreams[0];
  const refork = ctx.linux && has(KERNEL_FEATURES.childSubreaper, ctx.a.kernel);
  const body = [
    { call: 'worker_processes', args: [ctx.processes], why: t('pitchfork.workers', { processes: ctx.processes }), evidence: [SRC.pitchfork] },
    { call: 'listen', args: [listenArg(u), { hash: { backlog: 1024 } }], why: t('pitchfork.listen'), evidence: [SRC.pitchfork] },
    { call: 'timeout', args: [serverRequestTimeout(ctx)] },
  ];
  if (refork) body.push({ call: 'refork_after', args: [[50, 100, 1000]], why: t('pitchfork.refork'), evidence: [SRC.pitchforkRefork] });
  else body.push({ comment: t('pitchfork.norefork') });
  return { files: [{ path: 'config/pitchfork.rb', format: 'ruby', body }], warnings };
}
