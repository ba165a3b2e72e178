import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import pg from 'pg';
import { fromRoot } from './paths.js';

const run = promisify(execFile);
const ADMIN_URL = process.env.PW_TEST_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A brand-new database with every migration applied, through the product's own Prisma path. */
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
  await run(process.execPath, [fromRoot('scripts/prisma.mjs'), 'migrate', 'deploy'], {
    cwd: fromRoot(),
    env: { ...process.env, DATABASE_URL: url },
  });
  return { name, url };
}

export async function dropTestDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Direct SQL for arranging states no API offers (an account disabled by an operator, an old password). */
export async function withDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Gives an item one saved action (a NAVIGATE row, as PUT /extractor/edit writes it). The dashboard
 * lists only items saved, validated or run: a test that needs an item listed without recording its
 * flow makes it saved this way.
 */
export async function saveOneAction(client: pg.Client, extractorId: string): Promise<void> {
  await client.query(
    `INSERT INTO "ExtractorAction" (id, "extractorId", sequence, type, "updatedAt") VALUES (gen_random_uuid(), $1, 10, 'NAVIGATE', now())`,
    [extractorId],
  );
}
