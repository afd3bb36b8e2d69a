// YJIT's memory per Ruby process: what the budget holds back, and on small hosts the RUBYOPT that bounds it with
// the option the chosen Ruby accepts (capabilities/ruby.mjs JIT.yjitMemory, yjitSmallHost).
import { JIT, RAILS_API } from './caps.mjs';
import { has } from './pick.mjs';
import { gte } from './version.mjs';

/** Rails turns YJIT on itself after boot: config.yjit (Rails 7.2+) calls RubyVM::YJIT.enable, which 3.3 added. */
export function railsEnablesYjit(ctx) {
  return has(RAILS_API.configYjit, ctx.a.rails) && gte(ctx.a.ruby_version, '3.3');
}

/** The JIT.yjitMemory row for a CRuby version, or null (before 3.2: no production YJIT, nothing to bound). */
export function yjitMemoryRow(version) {
  return (JIT.yjitMemory || []).find((r) => gte(version, r.since)) || null;
}

/**
 * {mbPerProcess, bound: null | {option, value, rubyopt, lazy}} for a Ruby whose YJIT is on. Where Rails turns YJIT
 * on after boot, the bound must not turn it on at boot itself (any --yjit-* option does): the lazy option keeps it
 * off and leaves the app's own config.yjit in charge.
 */
export function yjitMemory(ctx) {
  const railsEnables = railsEnablesYjit(ctx);
  const row = yjitMemoryRow(ctx.a.ruby_version);
  if (!ctx.yjitEnabled || !row) return { mbPerProcess: 0, bound: null };
  const perExec = JIT.yjitTotalPerExec;
  const toTotal = (mib) => (row.bounds === 'total' ? mib : Math.round(mib * perExec));
  const small = JIT.yjitSmallHost;
  if (!small || !(ctx.a.ram_gb <= small.maxRamGb)) {
    const def = row.defaultMiBAt?.[ctx.a.ruby_version] ?? row.defaultMiB;
    return { mbPerProcess: toTotal(def), bound: null };
  }
  const value = row.bounds === 'total' ? small.totalMiB : Math.floor(small.totalMiB / perExec);
  const lazy = railsEnables ? row.lazy : null;
  const rubyopt = [lazy, `${row.option}=${value}`].filter(Boolean).join(' ');
  return { mbPerProcess: toTotal(value), bound: { option: row.option, value, rubyopt, lazy, bounds: row.bounds } };
}
