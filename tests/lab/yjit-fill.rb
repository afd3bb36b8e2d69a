# Compiles as much Ruby as YJIT will take: 40,000 distinct methods, each called three times (run with
# --yjit-call-threshold=1), then prints YJIT's own accounting of its memory in bytes: the code region it has
# mapped and the metadata it has allocated (RubyVM::YJIT.runtime_stats). Enables YJIT lazily, like Rails'
# config.yjit, when it is not on yet.
RubyVM::YJIT.enable unless RubyVM::YJIT.enabled?
40_000.times do |i|
  eval("def m#{i}(a) = (a > 1 ? [a, #{i}].sum + a.to_s.size : a * #{i}); m#{i}(1); m#{i}(2); m#{i}(3)", binding, __FILE__, __LINE__)
end
s = RubyVM::YJIT.runtime_stats
puts "yjit-bytes #{s[:code_region_size] + s[:yjit_alloc_size]} compiled #{s[:compiled_iseq_count]}"
