# Loads generated puma.rb / unicorn.rb / pitchfork.rb files with the real gems' configuration loaders and prints
# JSON facts. puma and unicorn come from the project's Gemfile (test group); pitchfork from tests/wizard/e2e/Gemfile.
# Usage: bundle exec ruby tests/wizard/load-configs.rb items.json   (items: [{kind: "puma"|"unicorn"|"pitchfork", path}])
require "json"

items = JSON.parse(File.read(ARGV.fetch(0)))
out = {}
items.each do |item|
  path = item.fetch("path")
  case item.fetch("kind")
  when "puma"
    require "puma"
    require "puma/configuration"
    conf = Puma::Configuration.new(config_files: [path])
    conf.load
    opts = conf.options
    out[path] = {
      "puma" => Puma::Const::PUMA_VERSION,
      "workers" => opts[:workers],
      "min_threads" => opts[:min_threads],
      "max_threads" => opts[:max_threads],
      "binds" => opts[:binds],
      "preload_app" => opts[:preload_app],
    }
  when "unicorn"
    require "unicorn"
    cfg = Unicorn::Configurator.new(config_file: path)
    set = cfg.set
    out[path] = {
      "unicorn" => Unicorn::Const::UNICORN_VERSION,
      "worker_processes" => set[:worker_processes],
      "listeners" => set[:listeners],
      "timeout" => set[:timeout],
      "preload_app" => set[:preload_app],
    }
  when "pitchfork"
    require "pitchfork"
    cfg = Pitchfork::Configurator.new(config_file: path)
    set = cfg.set
    out[path] = {
      "pitchfork" => Pitchfork::Const::UNICORN_VERSION,
      "worker_processes" => set[:worker_processes],
      "listeners" => set[:listeners],
      "refork" => set[:refork_condition] != :unset && !set[:refork_condition].nil?,
    }
  else
    raise "unknown kind #{item["kind"]}"
  end
end
puts JSON.generate(out)
