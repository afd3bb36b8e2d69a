# GET /faults/forwarded, installed only with LAB_FORWARDED_ECHO=1 (tests/wizard/faults-balancers.test.mjs sets it in the
# app hosts' secrets.env): the forwarded headers as the proxy in front sent them. A middleware at the head of the
# stack answers, because Rails' AssumeSSL (config.assume_ssl) rewrites X-Forwarded-Proto and -Port before any
# controller sees them. Other requests pass through untouched; without the switch nothing is installed.
if ENV["LAB_FORWARDED_ECHO"] == "1"
  class LabForwardedEcho
    KEYS = %w[HTTP_X_FORWARDED_PROTO HTTP_X_FORWARDED_PORT HTTP_X_FORWARDED_SSL HTTP_X_FORWARDED_SCHEME HTTP_X_FORWARDED_HOST].freeze

    def initialize(app)
      @app = app
    end

    def call(env)
      return @app.call(env) unless env["PATH_INFO"] == "/faults/forwarded"

      body = KEYS.map { |k| "#{k.delete_prefix("HTTP_").downcase}=#{env[k]}" }.join(" ")
      [200, { "content-type" => "text/plain" }, ["#{body}\n"]]
    end
  end

  Rails.application.config.middleware.insert_before 0, LabForwardedEcho
end
