# In-process proof that the concurrency sweep's routes measure what they are named for (run with
# bin/rails runner inside the lab, after lab-app prepare). Calls each route through the Rack app, without a
# server, and prints per request: route, status, CPU ms, runnable ms (on a CPU or queued for one), wall ms and
# what the request waited on. Usage: bin/rails runner route-proof.rb [REQUESTS] [CPU_N] [IO_MS]
requests = (ARGV[0] || 5).to_i.clamp(1, 50)
cpu_n = (ARGV[1] || 200_000).to_i
io_ms = (ARGV[2] || 100).to_i
app = Rails.application
call = lambda do |path|
  status, headers, body = app.call(Rack::MockRequest.env_for(path, "HTTP_HOST" => "127.0.0.1"))
  body.close if body.respond_to?(:close)
  [status, *%w[x-work-cpu-ms x-work-runnable-ms x-work-wall-ms].map { |h| headers[h] || "-" }, headers["x-wait"] || "-"]
end
call.call("/cpu?n=1000")
call.call("/io?ms=1")
requests.times do
  puts ["cpu", *call.call("/cpu?n=#{cpu_n}")].join("\t")
  puts ["io", *call.call("/io?ms=#{io_ms}")].join("\t")
end
