import { execSync } from 'node:child_process';
import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
// Relative on purpose: the config bundler inlines it, whereas the package entry would reach Node as raw .ts.
import { APP_VERSION } from '../../packages/shared/src/constants.js';

/** The short commit shown next to the version: CI passes BUILD_HASH, local builds ask git. */
function resolveBuildHash(buildHashFromEnv: string | undefined): string {
  const fromEnv = buildHashFromEnv?.trim();
  if (fromEnv) return fromEnv;
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'dev';
  }
}

const API_TARGET = 'http://127.0.0.1:8080';

export default defineConfig(({ mode }) => ({
  plugins: [react()],
  define: {
    __APP_VERSION__: JSON.stringify(APP_VERSION),
    // loadEnv with no prefix filter: BUILD_HASH from the environment or a .env file.
    __BUILD_HASH__: JSON.stringify(resolveBuildHash(loadEnv(mode, '.', '').BUILD_HASH) || 'dev'),
  },
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
              priority: 3,
            },
            {
              name: 'mui',
              test: /node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group|stylis)[\\/]/,
              priority: 2,
            },
            {
              // The script editor and its parser: only the builder (a lazy route) loads them.
              name: 'editor',
              test: /node_modules[\\/](@codemirror|@lezer|acorn|crelt|style-mod|w3c-keyname)[\\/]/,
              priority: 2,
            },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
}));
