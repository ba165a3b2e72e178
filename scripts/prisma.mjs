#!/usr/bin/env node
// Runs the workspace's pinned Prisma CLI with the settings Pagewright needs, so that
// `generate` and every `migrate` command work on hosts that reach only the npm registry.
//
//   node scripts/prisma.mjs <prisma arguments...>      e.g. node scripts/prisma.mjs migrate status
//
// - PRISMA_SCHEMA_ENGINE_BINARY: when unset, points at prisma/engine/schema-engine, the WASM-based
//   engine shipped in this repository; otherwise the CLI would try to download the native engine.
//   A host that has the native engine sets the variable itself and this script leaves it alone.
// - CHECKPOINT_DISABLE=1: no update check (a network call).
// - DATABASE_URL: defaults to the local development database.
// - `migrate deploy|dev|reset` first create the target database when it does not exist yet.
//
// The CLI runs from the repository root, so relative paths in arguments are relative to it.
// See docs/offline-install.md.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(repositoryRoot, 'package.json'));

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/pagewright';
const bundledSchemaEngine = path.join(repositoryRoot, 'prisma', 'engine', 'schema-engine');

const prismaArgs = process.argv.slice(2);
const env = { ...process.env, CHECKPOINT_DISABLE: '1' };
env.DATABASE_URL ||= DEFAULT_DATABASE_URL;
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) {
  if (!existsSync(bundledSchemaEngine)) {
    process.stderr.write(`scripts/prisma.mjs: ${bundledSchemaEngine} is missing\n`);
    process.exit(1);
  }
  env.PRISMA_SCHEMA_ENGINE_BINARY = bundledSchemaEngine;
}

const [command, subcommand] = prismaArgs;
if (command === 'migrate' && ['deploy', 'dev', 'reset'].includes(subcommand ?? '')) {
  await ensureDatabaseExists(env.DATABASE_URL);
}

const prismaCli = require.resolve('prisma/build/index.js');
const child = spawn(process.execPath, [prismaCli, ...prismaArgs], {
  cwd: repositoryRoot,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  if (!signal) process.exit(code ?? 1);
  // Die of the same signal, as a shell expects, without our forwarding handler in the way.
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
});

/** `migrate deploy` expects the database to exist; create it from the server's `postgres` database. */
async function ensureDatabaseExists(databaseUrl) {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.slice(1));
  if (!database || database === 'postgres') return;
  const { default: pg } = await import('pg');
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
      process.stdout.write(`Created database "${database}".\n`);
    }
  } catch (error) {
    // Prisma reports connection problems itself, with its own codes; only say why we could not help.
    process.stderr.write(
      `scripts/prisma.mjs: could not ensure database "${database}" exists: ${error.message}\n`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}
