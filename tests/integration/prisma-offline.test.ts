/**
 * The air-gapped database path: with no PRISMA_SCHEMA_ENGINE_BINARY set and no way to download
 * anything, the db:* scripts must generate the client, migrate a fresh database, report its status
 * and check the migrations against the schema, all through prisma/engine (docs/offline-install.md).
 * Then the generated client is used against that database to check the schema's key constraints.
 *
 * Needs the PostgreSQL of this machine (PW_TEST_ADMIN_DATABASE_URL, default postgres@127.0.0.1:5432).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const adminUrl = process.env.PW_TEST_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const databaseName = `pagewright_test_offline_${randomBytes(6).toString('hex')}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();

const rootScripts = (
  JSON.parse(readFileSync(path.join(repositoryRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/** The environment of an air-gapped host: no engine configured, engine downloads unreachable. */
function offlineEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    // Port 9 (discard) refuses connections: any engine download attempt fails the command.
    PRISMA_ENGINES_MIRROR: 'http://127.0.0.1:9',
  };
  delete env.PRISMA_SCHEMA_ENGINE_BINARY;
  delete env.PRISMA_MIGRATION_ENGINE_BINARY;
  delete env.SHADOW_DATABASE_URL;
  return env;
}

function run(command: string) {
  const result = spawnSync(command, {
    cwd: repositoryRoot,
    env: offlineEnv(),
    shell: true,
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

/** Runs a root package.json script the way `pnpm <name>` would, plus extra arguments. */
function runScript(name: string, extraArgs = '') {
  const command = rootScripts[name];
  if (!command) throw new Error(`package.json has no script ${name}`);
  return run(`${command} ${extraArgs}`);
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe('Prisma on a host without the native schema engine', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${databaseName}"`));
  });

  afterAll(async () => {
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`));
  });

  it('generates the client', () => {
    // Into a scratch folder: the live packages/db/src/generated is in use by other test files.
    const scratch = mkdtempSync(path.join(tmpdir(), 'pagewright-generate-'));
    try {
      const schema = readFileSync(path.join(repositoryRoot, 'prisma/schema.prisma'), 'utf8');
      const redirected = schema.replace(
        /output\s*=\s*"[^"]*"/,
        `output = "${path.join(scratch, 'generated')}"`,
      );
      expect(redirected).not.toBe(schema);
      writeFileSync(path.join(scratch, 'schema.prisma'), redirected);
      const { status, output } = runScript('db:generate', `--schema ${path.join(scratch, 'schema.prisma')}`);
      expect(status, output).toBe(0);
      expect(output).toContain('Generated Prisma Client');
      expect(readFileSync(path.join(scratch, 'generated', 'client.ts'), 'utf8')).toContain('PrismaClient');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('creates the database and applies every migration (db:migrate)', async () => {
    const { status, output } = runScript('db:migrate');
    expect(status, output).toBe(0);
    expect(output).toContain('All migrations have been successfully applied');

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
      );
      const tables = rows.map((r) => r.table_name);
      for (const table of [
        'User',
        'RefreshTokenFamily',
        'Extractor',
        'ExtractorAction',
        'Run',
        'Dataset',
        'Query',
        'Scheduler',
        'Message',
        'RecognitionTemplate',
        '_prisma_migrations',
      ]) {
        expect(tables).toContain(table);
      }
    } finally {
      await client.end();
    }
  });

  it('reports the database up to date (db:status)', () => {
    const { status, output } = runScript('db:status');
    expect(status, output).toBe(0);
    expect(output).toContain('Database schema is up to date');
  });

  it('finds no drift between migrations and schema (db:drift-check)', () => {
    const { status, output } = runScript('db:drift-check');
    expect(status, output).toBe(0);
  });

  it('exits non-zero when the schema has changes no migration holds', () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'pagewright-drift-'));
    try {
      const schema = readFileSync(path.join(repositoryRoot, 'prisma/schema.prisma'), 'utf8');
      const drifted = schema.replace(/^model Extractor \{$/m, 'model Extractor {\n  driftProbe Int?');
      expect(drifted).not.toBe(schema);
      const driftedPath = path.join(scratch, 'schema.prisma');
      writeFileSync(driftedPath, drifted);
      const command = rootScripts['db:drift-check']!.replace('prisma/schema.prisma', driftedPath);
      const { status, output } = run(command);
      expect(status, output).toBe(2);
      expect(output).toContain('driftProbe');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('serves the generated client, with its unique and delete rules', async () => {
    const { createPrismaClient, Prisma } = await import('@pagewright/db');
    const db = createPrismaClient(databaseUrl);
    try {
      const user = await db.user.create({
        data: {
          email: 'offline@example.com',
          firstName: 'Off',
          lastName: 'Line',
          passwordHash: 'x',
          passwordChangedAt: new Date(),
        },
      });
      const extractor = await db.extractor.create({
        data: {
          userId: user.id,
          name: 'Prices',
          description: 'Reads prices',
          extractorType: 'EXTRACTOR',
          actions: {
            create: [
              { sequence: 10, type: 'NAVIGATE', textValue: 'https://example.com' },
              { sequence: 20, type: 'GET_TEXT', label: 'price' },
            ],
          },
        },
        include: { actions: { orderBy: { sequence: 'asc' } } },
      });
      expect(extractor.actions.map((a) => a.type)).toEqual(['NAVIGATE', 'GET_TEXT']);
      expect(extractor.actions[0]?.fallbackLocators).toEqual([]);

      // A user's names are unique per kind: the same name is fine for an insertor only.
      const duplicate = db.extractor.create({
        data: { userId: user.id, name: 'Prices', description: 'again', extractorType: 'EXTRACTOR' },
      });
      await expect(duplicate).rejects.toSatisfy(
        (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2002',
      );
      await db.extractor.create({
        data: { userId: user.id, name: 'Prices', description: 'inserts', extractorType: 'INSERTOR' },
      });

      // An extractor mapped into a dataset cannot be deleted ("it is associated with a data set").
      const getText = extractor.actions[1]!;
      await db.dataset.create({
        data: {
          userId: user.id,
          name: 'Prices',
          description: 'Prices by day',
          fields: { create: { name: 'price', sequence: 1, maps: { create: { actionId: getText.id } } } },
        },
      });
      await expect(db.extractor.delete({ where: { id: extractor.id } })).rejects.toSatisfy(
        (e: unknown) => e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2003',
      );

      // Deleting the user removes everything it owns, both sides of that reference included.
      await db.user.delete({ where: { id: user.id } });
      expect(await db.extractor.count()).toBe(0);
      expect(await db.extractorAction.count()).toBe(0);
      expect(await db.datasetMap.count()).toBe(0);
    } finally {
      await db.$disconnect();
    }
  });
});
