import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * Fresh databases for tests against a real PostgreSQL (`@pagewright/db/test-support`): this
 * package's own tests and the suite's (tests/support/test-database.ts) make them here, with every
 * migration applied through the product's own Prisma path (scripts/prisma.mjs).
 */

const run = promisify(execFile);
const ADMIN_URL = process.env.PW_TEST_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A brand-new database with every migration applied, through the product's own Prisma path.
 * @internal For tests.
 */
export async function createTestDatabase(prefix = 'pagewright_test'): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(name);
  await run(process.execPath, [path.join(REPO_ROOT, 'scripts/prisma.mjs'), 'migrate', 'deploy'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: url },
  });
  return { name, url };
}

/** @internal For tests. */
export async function dropTestDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
