Rails.application.routes.draw do
  # Health check: 200 when the app boots without exceptions (load balancers and the lab's tests use it).
  get "up" => "rails/health#show", as: :rails_health_check

  # The research's page types
  get "api" => "pages#api"
  get "heavy" => "pages#heavy"
  get "regular" => "pages#regular"

  # The Rails code patterns, e.g. /patterns/n_plus_one against /patterns/eager
  get "patterns/:name" => "patterns#show", as: :pattern

  # Background jobs, WebSockets and file downloads
  post "jobs" => "jobs#create"
  get "jobs/:token" => "jobs#show", as: :job
  post "broadcasts" => "broadcasts#create"
  get "download" => "downloads#show"

  # Fault injection (tests/wizard/faults-*.test.mjs): a URL that always fails, the URL Rails generates, an upload sink
  get "faults/fail" => "faults#fail"
  get "faults/url" => "faults#url"
  post "faults/upload" => "faults#upload"
  get "faults/release" => "faults#release"
  get "faults/slow" => "faults#slow"

  # Synthetic load for the concurrency sweep
  get "io" => "load#io"
  get "cpu" => "load#cpu"
  get "slow" => "load#slow"

  # The background-jobs experiment (scripts/rebench jobs): enqueue N timestamped jobs
  post "bench/jobs" => "bench_jobs#create"

  # The replica experiment (scripts/rebench replica): a write, then a read of it through automatic role switching
  post "bench/replica" => "bench_replica#create"
  get "bench/replica/:id" => "bench_replica#show"

  root "pages#regular"
end
