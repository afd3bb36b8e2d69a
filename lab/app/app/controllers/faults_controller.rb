# Routes for the fault-injection suite (tests/wizard/faults-*.test.mjs, issue 23): a URL that always fails, the URL
# Rails generates for the request (to catch a forged X-Forwarded-Host), and an upload sink that reports its size.
class FaultsController < ActionController::API
  # The release this process booted (the REVISION file a deploy test writes), read once at boot as app code is.
  RELEASE = Rails.root.join("REVISION").then { |p| p.exist? ? p.read.strip : "none" }

  # GET /faults/release: which release answers (tests/wizard/faults-deploys.test.mjs tells releases apart by it).
  def release
    render plain: "#{RELEASE}\n"
  end

  # GET /faults/fail: always 500, as a broken page would. A balancer must not take hosts out for it.
  def fail
    render plain: "failing on purpose\n", status: :internal_server_error
  end

  # GET /faults/url: the absolute URL Rails builds for this request (root_url uses the host it believes it serves).
  def url
    render plain: "#{root_url}\n"
  end

  # GET /faults/slow?s=SECONDS: answers after SECONDS (at most 120), slower than a proxy's wait when asked to be.
  def slow
    sleep params[:s].to_f.clamp(0, 120)
    render plain: "slept\n"
  end

  # POST /faults/upload: reads the whole body and answers with its size in bytes.
  def upload
    render plain: "#{request.body.read.bytesize}\n"
  end
end
