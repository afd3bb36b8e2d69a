require "active_support/core_ext/integer/time"

Rails.application.configure do
  # Settings specified here will take precedence over those in config/application.rb.

  # Code is not reloaded between requests.
  config.enable_reloading = false

  # Eager load code on boot for better performance and memory savings (ignored by Rake tasks).
  config.eager_load = true

  # Full error reports are disabled.
  config.consider_all_requests_local = false

  # Turn on fragment caching in view templates.
  config.action_controller.perform_caching = true

  # Cache assets for far-future expiry since they are all digest stamped.
  config.public_file_server.headers = { "cache-control" => "public, max-age=#{1.year.to_i}" }

  # Enable serving of images, stylesheets, and JavaScripts from an asset server.
  # config.asset_host = "http://assets.example.com"

  # Store uploaded files on the local file system (see config/storage.yml for options).
  config.active_storage.service = :local

  # Assume all access to the app is happening through a SSL-terminating reverse proxy.
  # The lab measures plain HTTP by default; the HTTPS proofs put a TLS proxy in front and switch these on.
  config.assume_ssl = ENV["RAILS_ASSUME_SSL"] == "true"

  # Force all access to the app over SSL, use Strict-Transport-Security, and use secure cookies.
  config.force_ssl = ENV["RAILS_FORCE_SSL"] == "true"

  # Falcon serves each request in a fiber of one thread: Active Support's per-request state, and with it the
  # Active Record connection a request has checked out, must follow the fiber, or concurrent requests share one
  # PostgreSQL connection and fail. rebench sets LAB_ISOLATION_LEVEL=fiber for Falcon; the other servers keep :thread.
  config.active_support.isolation_level = :fiber if ENV["LAB_ISOLATION_LEVEL"] == "fiber"

  # Rails 8.1's defaults turn YJIT on at boot where the Ruby has it (config.yjit = !Rails.env.local?): the lab's
  # YJIT build (scripts/lab run --ruby 3.4-yjit) then runs with it. LAB_YJIT=off keeps it off (config.yjit = false),
  # so rebench can measure the same build both ways. With LAB_YJIT set (on or off), every response says which Ruby
  # served it and whether YJIT was on in that process: Rails enables YJIT in its last initializer, after the
  # after_initialize hooks, so only a request shows the state a worker really runs with.
  config.yjit = false if ENV["LAB_YJIT"] == "off"
  if ENV["LAB_YJIT"]
    config.middleware.insert_before 0, Class.new {
      def initialize(app) = @app = app
      def call(env)
        status, headers, body = @app.call(env)
        headers["x-lab-ruby"] = "#{RbConfig.ruby}; YJIT #{defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? "on" : "off"}"
        [status, headers, body]
      end
    }
  end

  # Automatic role switching (the replica experiment): GET and HEAD requests read from the replica unless this
  # session wrote less than LAB_REPLICA_DELAY_S seconds ago (Rails' default resolver and its session context).
  if ENV["LAB_REPLICA_PORT"].present? && ENV["LAB_REPLICA_DELAY_S"].present?
    config.active_record.database_selector = { delay: Float(ENV["LAB_REPLICA_DELAY_S"]).seconds }
    config.active_record.database_resolver = ActiveRecord::Middleware::DatabaseSelector::Resolver
    config.active_record.database_resolver_context = ActiveRecord::Middleware::DatabaseSelector::Resolver::Session
  end

  # Skip http-to-https redirect for the default health check endpoint.
  # config.ssl_options = { redirect: { exclude: ->(request) { request.path == "/up" } } }

  # Log to STDOUT with the current request id as a default log tag.
  config.log_tags = [ :request_id ]
  config.logger   = ActiveSupport::TaggedLogging.logger(STDOUT)

  # Change to "debug" to log everything (including potentially personally-identifiable information!).
  config.log_level = ENV.fetch("RAILS_LOG_LEVEL", "info")

  # Prevent health checks from clogging up the logs.
  config.silence_healthcheck_path = "/up"

  # Don't log any deprecations.
  config.active_support.report_deprecations = false

  # Replace the default in-process memory cache store with a durable alternative.
  # The lab switches the store by LAB_CACHE_STORE for the caching experiment (Redis and Memcached from the lab's
  # services layer, started by the experiment on loopback); otherwise Rails 8's default, Solid Cache.
  config.cache_store = case ENV["LAB_CACHE_STORE"]
  when "redis" then [ :redis_cache_store, { url: ENV.fetch("LAB_CACHE_REDIS_URL", "redis://127.0.0.1:6380/0") } ]
  when "memcached" then [ :mem_cache_store, ENV.fetch("LAB_CACHE_MEMCACHED", "127.0.0.1:11211") ]
  when nil, "", "solid_cache" then :solid_cache_store
  else raise ArgumentError, "LAB_CACHE_STORE must be solid_cache, redis or memcached, not #{ENV["LAB_CACHE_STORE"].inspect}"
  end

  # Let the proxy send files (X-Accel-Redirect for nginx, X-Sendfile for Apache) when the lab's proxy is set up for it.
  config.action_dispatch.x_sendfile_header = ENV["RAILS_X_SENDFILE_HEADER"].presence

  # Action Cable accepts WebSocket connections from these origins (comma-separated), besides the app's own host.
  if ENV["LAB_CABLE_ORIGINS"].present?
    config.action_cable.allowed_request_origins = ENV["LAB_CABLE_ORIGINS"].split(",").map(&:strip)
  end

  # Replace the default in-process and non-durable queuing backend for Active Job.
  # LAB_JOBS=sidekiq plays the wizard's Sidekiq advice: Sidekiq's adapter (the gem ships it), Redis from REDIS_URL,
  # and no Solid Queue database.
  # LAB_JOBS=good_job|delayed_job: their adapters, their tables in the primary database (the migrations under
  # db/<backend>_migrate are the ones `bin/rails generate good_job:install` and `delayed_job:active_record` write),
  # no Solid Queue database either.
  case ENV["LAB_JOBS"]
  when "sidekiq"
    require "sidekiq"
    config.active_job.queue_adapter = :sidekiq
  when "good_job", "delayed_job"
    config.active_job.queue_adapter = ENV["LAB_JOBS"].to_sym
    config.paths["db/migrate"] << "db/#{ENV["LAB_JOBS"]}_migrate"
  else
    config.active_job.queue_adapter = :solid_queue
    config.solid_queue.connects_to = { database: { writing: :queue } }
  end

  # Ignore bad email addresses and do not raise email delivery errors.
  # Set this to true and configure the email server for immediate delivery to raise delivery errors.
  # config.action_mailer.raise_delivery_errors = false

  # Set host to be used by links generated in mailer templates.
  config.action_mailer.default_url_options = { host: "example.com" }

  # Specify outgoing SMTP server. Remember to add smtp/* credentials via bin/rails credentials:edit.
  # config.action_mailer.smtp_settings = {
  #   user_name: Rails.application.credentials.dig(:smtp, :user_name),
  #   password: Rails.application.credentials.dig(:smtp, :password),
  #   address: "smtp.example.com",
  #   port: 587,
  #   authentication: :plain
  # }

  # Enable locale fallbacks for I18n (makes lookups for any locale fall back to
  # the I18n.default_locale when a translation cannot be found).
  config.i18n.fallbacks = true

  # Do not dump schema after migrations.
  config.active_record.dump_schema_after_migration = false

  # Only use :id for inspections in production.
  config.active_record.attributes_for_inspect = [ :id ]

  # Enable DNS rebinding protection and other `Host` header attacks.
  # config.hosts = [
  #   "example.com",     # Allow requests from example.com
  #   /.*\.example\.com/ # Allow requests from subdomains like `www.example.com`
  # ]
  #
  # Skip DNS rebinding protection for the default health check endpoint.
  # config.host_authorization = { exclude: ->(request) { request.path == "/up" } }
end
