# Synthetic routes for the concurrency sweep, each measuring what it is named for:
#   /io waits on the database (PostgreSQL pg_sleep, MariaDB SLEEP): a real wait on a real connection, during which
#       Ruby releases the GVL. SQLite runs inside the process and cannot wait without computing, so there the
#       route sleeps, and says so (X-Wait: sleep).
#   /cpu computes in Ruby and holds the GVL.
# Both report, measured in process for their own work: thread CPU time (X-Work-CPU-Ms), wall time (X-Work-Wall-Ms)
# and runnable time (X-Work-Runnable-Ms: on a CPU or waiting in the run queue for one, from the kernel's
# /proc/thread-self/schedstat). Runnable ≈ wall proves CPU-bound even on a busy machine, where other programs
# stretch the wall time; runnable ≪ wall proves the request waited. Both routes are bounded.
class LoadController < ActionController::API
  WAITS = {
    "PostgreSQL" => ->(conn, s) { conn.select_value("SELECT pg_sleep(#{s})") },
    "Mysql2" => ->(conn, s) { conn.select_value("SELECT SLEEP(#{s})") },
    "Trilogy" => ->(conn, s) { conn.select_value("SELECT SLEEP(#{s})") }
  }.freeze

  def io
    ms = params.fetch(:ms, 50).to_i.clamp(0, 2000)
    conn = ActiveRecord::Base.connection
    wait = WAITS[conn.adapter_name]
    kind = measured do
      if wait
        wait.call(conn, ms / 1000.0)
        "#{conn.adapter_name} #{conn.adapter_name == "PostgreSQL" ? "pg_sleep" : "SLEEP"}"
      else
        sleep(ms / 1000.0)
        "sleep"
      end
    end
    response.headers["X-Wait"] = kind
    render plain: "waited #{ms} ms (#{kind})\n"
  end

  # /slow?ms=N: the slow query of the timeouts experiment (scripts/rebench timeouts), one statement of up to 30 s on
  # the database, so that statement_timeout (database.yml variables, LAB_STATEMENT_TIMEOUT) can cancel it. A
  # cancelled statement raises ActiveRecord::QueryCanceled and the request ends with a 500 at that point.
  def slow
    ms = params.fetch(:ms, 10_000).to_i.clamp(0, 30_000)
    conn = ActiveRecord::Base.connection
    wait = WAITS[conn.adapter_name] or return render(plain: "no database wait on #{conn.adapter_name}\n", status: :not_implemented)
    wait.call(conn, ms / 1000.0)
    render plain: "slow query of #{ms} ms done\n"
  end

  def cpu
    n = params.fetch(:n, 200_000).to_i.clamp(0, 5_000_000)
    sum = 0
    measured { n.times { |i| sum += (i * i) % 7 } }
    render plain: "cpu #{n} #{sum}\n"
  end

  private

  SCHEDSTAT = "/proc/thread-self/schedstat"

  # Nanoseconds this thread has been on a CPU plus waiting for one; nil where the kernel does not say.
  def runnable_ns
    File.read(SCHEDSTAT).split.first(2).sum(&:to_i)
  rescue SystemCallError
    nil
  end

  def measured
    cpu0 = Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID)
    wall0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    run0 = runnable_ns
    result = yield
    run1 = runnable_ns
    response.headers["X-Work-CPU-Ms"] = format("%.3f", (Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID) - cpu0) * 1000)
    response.headers["X-Work-Wall-Ms"] = format("%.3f", (Process.clock_gettime(Process::CLOCK_MONOTONIC) - wall0) * 1000)
    response.headers["X-Work-Runnable-Ms"] = format("%.3f", (run1 - run0) / 1e6) if run0 && run1
    result
  end
end
