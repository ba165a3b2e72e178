import path from 'node:path';
import { fromRoot } from '../../tests/support/paths.js';

/**
 * Node flags for a benchmark's own stack (API and worker). BENCH_CPU_PROF=1 makes both write a V8
 * CPU profile when they stop (node --cpu-prof) into .pagewright/profiles/<bench>/: open the
 * .cpuprofile files in Chrome DevTools, or summarise them with `node scripts/cpuprofile-top.mjs`.
 */
export function benchNodeArgs(bench: string): string[] {
  if (process.env.BENCH_CPU_PROF !== '1') return [];
  return ['--cpu-prof', `--cpu-prof-dir=${path.join(fromRoot('.pagewright', 'profiles'), bench)}`];
}
