import { defineConfig } from 'tsup';

// Bundles the workspace packages (consumed as TypeScript source); npm dependencies stay external.
export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  noExternal: [/^@pagewright\//],
});
