# Routes for the fault-injection suite (tests/wizard/faults-*.test.mjs, issue 23): a URL that always fails, the URL
# Rails generates for the request (to catch a forged X-Forwarded-Host), and an upload sink that reports its size.
class FaultsController < ActionController::API
  # GET /faults/fail: always 500, as a broken page would. A balancer must not take hosts out for it.
  def fail
    render plain: "failing on purpose\n", status: :internal_server_error
  end

  # GET /faults/url: the absolute URL Rails builds for this request (root_url uses the host it believes it serves).
  def url
    render plain: "#{root_url}\n"
  end

  # POST /faults/upload: reads the whole body and answers with its size in bytes.
  def upload
    render plain: "#{request.body.read.bytesize}\n"
  end
end
