import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * Fresh databases for tests against a real PostgreSQL (`@pagewright/db/test-support`): this
 * package's own tests and the suite's (tests/support/test-database.ts) make them here. Every test
 * file or stack gets a database of its own; none ever touches the product's (`pagewright`).
 */

const run = promisify(execFile);
const ADMIN_URL = process.env.PW_TEST_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
const MIGRATIONS = path.join(REPO_ROOT, 'prisma/migrations');
/** Held while a template is built or copied: CREATE DATABASE … TEMPLATE needs the source idle. */
const TEMPLATE_LOCK = 'pagewright-test-template';

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The migrations' content hash: the template a test database is copied from is named after it,
 * so a changed or added migration makes a new template, never an out-of-date copy.
 */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const entry of readdirSync(MIGRATIONS, { recursive: true, withFileTypes: true })
    .filter((file) => file.isFile())
    .map((file) => path.join(file.parentPath, file.name))
    .sort()) {
    hash.update(path.relative(MIGRATIONS, entry)).update('\0').update(readFileSync(entry)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

async function withAdmin<T>(work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

const exists = async (admin: pg.Client, name: string) =>
  (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;

/**
 * Makes the migrated template of this checkout's migrations when it is missing: built under a
 * scratch name through the product's own Prisma path (scripts/prisma.mjs), renamed only once every
 * migration applied, so a template that exists is complete. Caller holds TEMPLATE_LOCK.
 */
async function ensureTemplate(admin: pg.Client): Promise<string> {
  const template = `pagewright_template_${migrationsHash()}`;
  if (await exists(admin, template)) return template;
  // A run killed while building left its scratch copy: only the lock holder builds, so none is live.
  const leftovers = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname LIKE 'pagewright_template_building_%'",
  );
  for (const { datname } of leftovers.rows)
    await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  const building = `pagewright_template_building_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${building}"`);
  try {
    await run(process.execPath, [path.join(REPO_ROOT, 'scripts/prisma.mjs'), 'migrate', 'deploy'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl(building) },
    });
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
  } catch (error) {
    await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    throw error;
  }
  return template;
}

/** Test databases older than this are left from a run that was killed (a cap fired, Ctrl-C). */
const LEFTOVER_AFTER_MS = 12 * 60 * 60 * 1000;
let leftoversSwept = false;

/**
 * Drops test databases a killed run left (their names carry their creation time), once per process:
 * a machine that runs the suite every day would otherwise fill up. A database half a day old is no
 * live run's (the whole suite's caps end within 75 minutes).
 */
async function dropLeftovers(admin: pg.Client): Promise<void> {
  if (leftoversSwept) return;
  leftoversSwept = true;
  const names = await admin.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname ~ '^pagewright_(test|unit)_[0-9]{13}_[0-9a-f]{6}$'",
  );
  for (const { datname } of names.rows) {
    const createdAt = Number(datname.split('_')[2]);
    if (Date.now() - createdAt > LEFTOVER_AFTER_MS)
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  }
}

/**
 * A brand-new database with every migration applied: a copy of a template migrated once per set of
 * migrations (about 0.2 s, where `prisma migrate deploy` costs about 2 s for each database).
 * @internal For tests.
 */
export async function createTestDatabase(prefix = 'pagewright_test'): Promise<{ name: string; url: string }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [TEMPLATE_LOCK]);
    try {
      await dropLeftovers(admin);
      const template = await ensureTemplate(admin);
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [TEMPLATE_LOCK]);
    }
  });
  return { name, url: databaseUrl(name) };
}

/** @internal For tests. */
export async function dropTestDatabase(name: string): Promise<void> {
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
