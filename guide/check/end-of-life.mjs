// Ruby and Rails versions past their end of life: notes, since a version that gets no security fixes is a risk the
// files prove but not a fault of the configuration. The dates are data (end-of-life.json, from ruby-lang.org's branch
// list and the Rails team's release posts), only those already past on its asOf date, so a report does not change
// with the day it runs. The version is the one the app records: .ruby-version (else Gemfile.lock's RUBY VERSION) for
// Ruby, Gemfile.lock for Rails; a Gemfile requirement's lower bound is not a version the app runs.
import EOL from './end-of-life.json' with { type: 'json' };

const series = (v) => /^(\d+)\.(\d+)/.exec(String(v ?? ''))?.slice(1, 3).join('.') ?? null;
const older = (a, b) => { const [x, y] = a.split('.').map(Number); const [p, q] = b.split('.').map(Number); return x < p || (x === p && y < q); };

/** The Ruby the app records: {value, file, line} from .ruby-version (CRuby only), else Gemfile.lock's RUBY VERSION. */
function recordedRuby(files) {
  const ok = (k) => files.find((f) => f.kind === k && !f.problem);
  const rv = ok('ruby-version');
  if (rv?.ruby) return rv.ruby.impl === 'ruby' ? { value: rv.ruby.value, file: rv.path, line: rv.ruby.line } : null;
  const lock = ok('gemfile-lock');
  return lock?.ruby?.impl === 'ruby' ? { value: lock.ruby.value, file: lock.path, line: lock.ruby.line } : null;
}

export function endOfLifeFindings(files) {
  const out = [];
  const ruby = recordedRuby(files);
  const r = ruby && EOL.ruby.ended.find((e) => e.series === series(ruby.value));
  if (r) {
    out.push({
      rule: 'end-of-life', severity: 'note', file: ruby.file, line: ruby.line, setting: 'ruby', found: ruby.value, expected: null,
      message: `Ruby ${r.series} reached its end of life on ${r.eol} (ruby-lang.org; as of ${EOL.asOf}): no bug or security fixes are released for ${ruby.value} any more, so a vulnerability found in it stays open. Plan the move to a maintained series`,
      evidence: [r.source || EOL.ruby.source],
    });
  }
  const lock = files.find((f) => f.kind === 'gemfile-lock' && !f.problem);
  const rails = lock?.settings.find((s) => s.name === 'rails') || lock?.settings.find((s) => s.name === 'railties');
  const rs = rails && series(rails.value);
  if (rs && EOL.rails.supported.every((v) => older(rs, v))) {
    out.push({
      rule: 'end-of-life', severity: 'note', file: lock.path, line: rails.line, setting: 'rails', found: rails.value, expected: null,
      message: `Rails ${rs} gets no fixes any more: the Rails team releases security and bug fixes only for ${EOL.rails.supported.join(' and ')} (its release post of ${EOL.rails.since}; as of ${EOL.asOf}), so a vulnerability found in ${rails.name} ${rails.value} stays open. Plan the upgrade, one minor series at a time`,
      evidence: [EOL.rails.source, EOL.rails.policy],
    });
  }
  return out;
}
