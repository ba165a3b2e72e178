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
        // `$initial` keeps the MUI and vendor chunks to what the first page (login) runs; what only
        // lazily loaded screens and dialogs use goes with them, or in chunks they share.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/,
              priority: 3,
            },
            {
              // zod's core and zod/mini (the account screens' contracts) with the app's setting of it
              // (lib/zod-config.ts: no eval, for the CSP), which must run before any contract builds a
              // schema: every chunk holding contracts imports this one, so it runs first. Classic zod
              // (its methods, JSON Schema output) only loads with the screens whose contracts use it.
              name: 'zod',
              test: /node_modules[\\/]zod[\\/](?!v4[\\/](classic[\\/]|core[\\/](to-json-schema|json-schema)))|[\\/]src[\\/]lib[\\/]zod-config\.ts$/,
              priority: 3,
            },
            { name: 'zod-classic', test: /node_modules[\\/]zod[\\/]/, priority: 3 },
            {
              name: 'mui',
              test: /node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group|stylis)[\\/]/,
              tags: ['$initial'],
              priority: 2,
            },
            {
              // The MUI components two or more lazily loaded screens or dialogs share (lists, menus,
              // dialogs, selects): one file, fetched with the first of them.
              name: 'mui-screens',
              test: /node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group|stylis)[\\/]/,
              minShareCount: 2,
              priority: 2,
            },
            {
              // CodeMirror: only the script editor (its own chunk, behind the builder's SCRIPT dialog) loads it.
              name: 'editor',
              test: /node_modules[\\/](@codemirror|@lezer|crelt|style-mod|w3c-keyname)[\\/]/,
              priority: 2,
            },
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
}));
