import type { Options } from 'tsup';

/**
 * How the Node apps are bundled: the workspace packages (consumed as TypeScript source) go into
 * one ESM file; npm dependencies stay external and load from node_modules.
 */
export function nodeAppBundle(entry: string | Record<string, string>): Options {
  return {
    entry: typeof entry === 'string' ? [entry] : entry,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    outDir: 'dist',
    clean: true,
    sourcemap: true,
    noExternal: [/^@pagewright\//],
  };
}
