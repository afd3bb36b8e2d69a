// Experiment 5: GC settings (thesis Table 5.14) with today's variables against the defaults.
import { pumaEnvExperiment } from './puma-env.mjs';

export default pumaEnvExperiment({
  name: 'gc',
  title: 'GC settings: RUBY_GC_HEAP_* and malloc limits against the defaults',
  mirrors: 'thesis Table 5.14',
  datasetId: 'rebench-2026-gc-settings',
  datasetTitle: 'Ruby 3.3 GC settings in 2026: initial heap slots, growth factor and malloc limit against the defaults',
  topic: 'gc',
  settingLabel: 'GC setting',
  baseline: 'default',
  quickCells: ['default', 'growth-1.1'],
  cells: [
    { id: 'default', label: 'Defaults', env: 'none' },
    { id: 'init-slots', label: 'Larger initial heaps', env: 'RUBY_GC_HEAP_0_INIT_SLOTS=400000 RUBY_GC_HEAP_1_INIT_SLOTS=100000 RUBY_GC_HEAP_2_INIT_SLOTS=50000' },
    { id: 'growth-1.1', label: 'Slow heap growth', env: 'RUBY_GC_HEAP_GROWTH_FACTOR=1.1' },
    { id: 'malloc-64m', label: 'Higher malloc limits', env: 'RUBY_GC_MALLOC_LIMIT=67108864 RUBY_GC_OLDMALLOC_LIMIT=67108864' },
  ],
  measured: 'Requests per second, latency and memory (PSS) with Ruby\'s garbage-collector variables as Ruby 3.3 reads them (the per-heap RUBY_GC_HEAP_%d_INIT_SLOTS replaced RUBY_GC_HEAP_INIT_SLOTS in 3.3) against the defaults.',
  caveats: ['The settings are passed as environment variables to Puma and checked in the running server\'s environment (raw-output *.env files); Ruby does not print whether it used them.'],
  related: ['thesis-ruby-yarv-gc-tuning'],
});
