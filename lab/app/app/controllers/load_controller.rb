# Synthetic routes for the concurrency sweep: /io waits like a slow external call (releases the GVL),
# /cpu burns Ruby CPU time (holds the GVL). Both are bounded so a request can never run away.
class LoadController < ActionController::API
  def io
    ms = params.fetch(:ms, 50).to_i.clamp(0, 2000)
    sleep(ms / 1000.0)
    render plain: "slept #{ms} ms\n"
  end

  def cpu
    n = params.fetch(:n, 25_000).to_i.clamp(0, 2_000_000)
    sum = 0
    n.times { |i| sum += (i * i) % 7 }
    render plain: "cpu #{n} #{sum}\n"
  end
end
