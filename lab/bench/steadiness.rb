# Throughput steadiness of a load run (protocol version 6, "http.steadiness" in _data/measurement_protocol.json).
# The run is its own reference: wrk-report.lua prints the responses completed in each 1 s window of the wall clock
# (WRK_WINDOWS); a stretch in which the host, the server or anything else ran the experiment slower (or faster)
# shows as windows far from the run's median. No calibration and no second process: on a host whose vCPUs share a
# core, a probe beside the experiment reads the experiment itself (version 5's finding), the responses do not.
#
#   1. The first and last windows are partial (wrk starts and stops between second boundaries): dropped.
#   2. Adjacent windows are merged into blocks that each expect at least MIN_EXPECTED responses at the median rate,
#      so that Poisson noise stays small against the slow ratio; never into fewer than MIN_WINDOWS blocks (a run too
#      sparse for that is judged with smaller blocks, where the noise term below keeps it from reading as slow).
#      Leftover windows join the last block.
#   3. A block is slow when its count is below expected / SLOW_RATIO and below expected - SIGMAS * sqrt(expected),
#      fast when above expected * SLOW_RATIO and expected + SIGMAS * sqrt(expected); expected = the run's median
#      window times the block's length in windows (under the square root at least 1). Both count as off: a run that spent most of its time slow has a slow median, and
#      only its fast stretch stands out.
#   4. The run is unsteady when more than MAX_OFF_PCT % of its blocks are off.
#   5. (Version 7) Or when it trends: the second half of its inner windows against the first differs by more than
#      TREND_MIN_PCT % and TREND_SIGMAS standard deviations. Block-against-median cannot see a run whose rate rises
#      steadily (a server still warming: every block stays near the median), a half-against-half test can.
#   DISPERSION scales the Poisson variance (1: Poisson) and WINDOW_CV adds windows that wander by that share of the
#   rate, independently each second (the pilot's API page: 7 %). Each run also reports its own steady_dispersion, the
#   variance of successive differences over twice the mean (a slow trend does not inflate it), so the noise model
#   can be checked against real counts.
# A run with fewer than MIN_WINDOWS inner windows, with blocks expecting fewer than MIN_BLOCK_EXPECTED responses (no
# dip could be told from noise there: underpowered, version 7), or without WRK_WINDOWS (ab, the job and replica
# clients), is not judged: steady_judged=0 and steady_why says which.
#
#   ruby steadiness.rb FILE min_expected=100 min_windows=3 slow_ratio=1.2 sigmas=3.5 max_off_pct=10 \
#        [min_block_expected=60 trend_min_pct=5 trend_sigmas=3.5 dispersion=1 window_cv=0.07]
#        key=value lines (steady_*), appended to the run's .protocol by lab/bench/protocol.sh.
# scripts/lib/rebench/steadiness.mjs is the same judgement in Node (the readback); the tests hold them together.
require 'json'

module Steadiness
  module_function

  def median(xs)
    s = xs.sort
    (s[(s.size - 1) / 2] + s[s.size / 2]) / 2.0
  end

  # counts: responses per window (first and last included); t: the thresholds (string keys, numbers).
  def judge(counts, t)
    inner = counts[1...-1] || []
    min_windows = t['min_windows'].to_i
    return { judged: 0, why: 'too_few_windows', inner_windows: inner.size } if inner.size < [min_windows, 1].max
    per_window = median(inner)
    most = inner.size / min_windows # the longest block that still leaves min_windows of them
    k = per_window.positive? ? (t['min_expected'].to_f / per_window).ceil : most
    k = k.clamp(1, most)
    blocks = inner.each_slice(k).to_a
    blocks[-2].concat(blocks.pop) if blocks.size > 1 && blocks[-1].size < k
    rate = per_window # the run's median window: over single windows, steadier than a median of 3 blocks
    floor = t['min_block_expected'].to_f
    if floor.positive? && rate * k < floor
      return { judged: 0, why: 'underpowered', inner_windows: inner.size, median_per_window: rate.round(1) }
    end
    ratio = t['slow_ratio'].to_f
    sig = t['sigmas'].to_f
    disp = t.fetch('dispersion', 1).to_f
    disp = 1.0 unless disp.positive?
    cv = t.fetch('window_cv', 0).to_f
    slow = fast = 0
    worst = nil
    blocks.each do |b|
      n = b.sum
      e = rate * b.size
      # Poisson (times DISPERSION), plus windows that wander by WINDOW_CV of their rate, independently each window
      # (version 7, from the pilot); at least one response's worth: a median of 0 is no Poisson mean.
      noise = sig * Math.sqrt(disp * [e, 1].max + (cv * rate)**2 * b.size)
      slow += 1 if n < e / ratio && n < e - noise
      fast += 1 if n > e * ratio && n > e + noise
      worst = n / e if e.positive? && (worst.nil? || (n / e - 1).abs > (worst - 1).abs)
    end
    off_pct = 100.0 * (slow + fast) / blocks.size
    trend = trend_of(inner, t, disp, cv * rate)
    unsteady = off_pct > t['max_off_pct'].to_f || trend[:trending] == 1 ? 1 : 0
    { judged: 1, inner_windows: inner.size, windows: blocks.size, block_s: k * t.fetch('window_s', 1).to_f,
      median_per_window: rate.round(1), slow: slow, fast: fast, off_pct: off_pct.round(1),
      worst_ratio: worst&.round(3), dispersion: dispersion_of(inner)&.round(2), **trend, unsteady: unsteady }
  end

  # Half against half (a middle window of an odd count is left out): the change in % and its z-score, with the
  # variance of a count taken as DISP times its mean. Only when trend_min_pct is set (version 7).
  def trend_of(inner, t, disp, wander)
    return {} unless t['trend_min_pct'] && inner.size >= 2
    h = inner.size / 2
    a = inner.first(h).sum.to_f
    b = inner.last(h).sum.to_f
    return { trend_pct: 0.0, trend_z: 0.0, trending: 0 } if a + b <= 0
    pct = a.positive? ? 100.0 * (b - a) / a : 100.0
    z = (b - a) / Math.sqrt(disp * (a + b) + 2 * h * wander**2)
    trending = pct.abs > t['trend_min_pct'].to_f && z.abs > t.fetch('trend_sigmas', t['sigmas']).to_f ? 1 : 0
    { trend_pct: pct.round(1), trend_z: z.round(2), trending: trending }
  end

  # Variance of successive differences over twice the mean: 1 for Poisson counts, and not inflated by a slow trend.
  def dispersion_of(xs)
    return nil if xs.size < 3
    mean = xs.sum.to_f / xs.size
    return nil unless mean.positive?
    d2 = xs.each_cons(2).sum { |x, y| (y - x)**2 }
    d2 / (2.0 * (xs.size - 1)) / mean
  end

  # Warm-up's stop rule (version 7): the least-squares slope over the last W counts, times W - 1 (the change across
  # them), within tolerance_pct % of their mean or within sigmas standard deviations of zero (Poisson and wander).
  def flat_trend(counts, t)
    w = t['windows'].to_i
    ys = counts.last(w)
    return { flat: 0, why: 'too_few_windows' } if w < 2 || ys.size < w
    mean = ys.sum.to_f / w
    xbar = (w - 1) / 2.0
    sxx = (0...w).sum { |x| (x - xbar)**2 }
    slope = (0...w).sum { |x| (x - xbar) * (ys[x] - mean) } / sxx
    change = slope * (w - 1)
    # A window's variance: Poisson plus the per-second wander (window_cv of the rate, independent each of its seconds).
    var = [mean, 1].max + (t.fetch('window_cv', 0).to_f * mean)**2 / [t.fetch('window_s', 1).to_f, 1].max
    limit = [t['tolerance_pct'].to_f / 100 * mean, t['sigmas'].to_f * (w - 1) * Math.sqrt(var / sxx)].max
    { flat: change.abs <= limit ? 1 : 0, trend_pct: mean.positive? ? (100 * change / mean).round(1) : 0.0,
      limit_pct: mean.positive? ? (100 * limit / mean).round(1) : 0.0 }
  end

  # The WRK_WINDOWS line of a run's output, or nil.
  def windows_of(text)
    line = text[/^WRK_WINDOWS (\{.*\})\s*$/, 1]
    line && JSON.parse(line)
  end
end

if $PROGRAM_NAME == __FILE__ && ARGV.first == '--flat'
  # ruby steadiness.rb --flat windows=4 tolerance_pct=2 sigmas=3 COUNT… : warmup_* lines; exit 0 when flat.
  ARGV.shift
  t, counts = ARGV.partition { |a| a.include?('=') }
  r = Steadiness.flat_trend(counts.map(&:to_i), t.to_h { |a| a.split('=', 2) })
  r.each { |k, v| puts "warmup_#{k}=#{v}" }
  exit(r[:flat] == 1 ? 0 : 1)
elsif $PROGRAM_NAME == __FILE__
  file = ARGV.shift
  t = ARGV.to_h { |a| a.split('=', 2) }
  w = File.exist?(file) ? Steadiness.windows_of(File.read(file, encoding: 'UTF-8', invalid: :replace)) : nil
  out = if w && w['counts'].is_a?(Array)
          Steadiness.judge(w['counts'], t.merge('window_s' => w['window_s']))
        else
          { judged: 0, why: 'no_windows' }
        end
  out.each { |k, v| puts "steady_#{k}=#{v}" unless v.nil? }
end
