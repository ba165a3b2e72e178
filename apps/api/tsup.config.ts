import { defineConfig } from 'tsup';

// Bundles the workspace packages (consumed as TypeScript source) into one ESM file; npm
// dependencies stay external and load from node_modules.
export default defineConfig({
  entry: ['src/server.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: [/^@pagewright\//],
});
