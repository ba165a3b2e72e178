import { createHash } from 'node:crypto';
import pg from 'pg';
import type { EngineEntity, EngineImportRow, EngineSection, Investor } from '@pagewright/shared';
import { seedInvestors } from './seed.js';

/** PostgreSQL's duplicate_database: another sandbox created it between our check and our CREATE. */
const DUPLICATE_DATABASE = '42P04';

/**
 * Creates the sandbox's database when it does not exist yet, from the server's `postgres`
 * database (the sandbox is a separate product: its own database, its own plain SQL, no Prisma).
 */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) throw new Error(`Unusable sandbox database name '${name}'`);
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return;
    await admin.query(`CREATE DATABASE "${name}"`).catch((error: unknown) => {
      if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
    });
  } finally {
    await admin.end();
  }
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS investors (
  position integer PRIMARY KEY,
  portfolioid text NOT NULL UNIQUE,
  name text NOT NULL,
  confirmation_number text,
  sections jsonb NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
  token_hash text PRIMARY KEY,
  username text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS imported_rows (
  entity text NOT NULL,
  external_id text NOT NULL,
  "values" jsonb NOT NULL,
  imported_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (entity, external_id)
);
`;

/** Sessions are kept by the hash of their token: a database dump hands out no live token. */
function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface StoredImportRow {
  externalId: string;
  values: EngineImportRow['values'];
  importedAt: string;
}

/** The only code that touches the sandbox's tables. */
export class SandboxStore {
  private constructor(private readonly pool: pg.Pool) {}

  static async open(databaseUrl: string): Promise<SandboxStore> {
    await ensureDatabase(databaseUrl);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 5 });
    const store = new SandboxStore(pool);
    try {
      // Serialised: two sandboxes starting on one database must not both create or seed it.
      await store.inTransaction(async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('fengine-sandbox-schema'))");
        await client.query(SCHEMA);
        const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM investors');
        if (Number(rows[0]?.count) === 0) await insertSeed(client);
      });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return store;
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  /** Back to the seed: investors as shipped, no session, no imported row. */
  reset(): Promise<void> {
    return this.inTransaction(async (client) => {
      await client.query('TRUNCATE investors, sessions, imported_rows');
      await insertSeed(client);
    });
  }

  async createSession(token: string, username: string, expiresAt: Date): Promise<void> {
    await this.pool.query('DELETE FROM sessions WHERE expires_at <= now()');
    await this.pool.query('INSERT INTO sessions (token_hash, username, expires_at) VALUES ($1, $2, $3)', [
      tokenHash(token),
      username,
      expiresAt,
    ]);
  }

  async isSessionLive(token: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      'SELECT 1 FROM sessions WHERE token_hash = $1 AND expires_at > now()',
      [tokenHash(token)],
    );
    return (rowCount ?? 0) > 0;
  }

  async listInvestors(
    page: number,
    pageSize: number,
    search: string,
  ): Promise<{ items: Investor[]; total: number }> {
    const pattern = `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    const where = `name ILIKE $1 OR portfolioid ILIKE $1 OR confirmation_number ILIKE $1`;
    const [items, count] = await Promise.all([
      this.pool.query<{ portfolioid: string; name: string; confirmation_number: string | null }>(
        `SELECT portfolioid, name, confirmation_number FROM investors WHERE ${where}
         ORDER BY position LIMIT $2 OFFSET $3`,
        [pattern, pageSize, (page - 1) * pageSize],
      ),
      this.pool.query<{ total: string }>(`SELECT count(*) AS total FROM investors WHERE ${where}`, [pattern]),
    ]);
    return {
      items: items.rows.map((row) => ({
        portfolioid: row.portfolioid,
        name: row.name,
        confirmationNumber: row.confirmation_number,
      })),
      total: Number(count.rows[0]?.total ?? 0),
    };
  }

  async investorSections(portfolioid: string): Promise<EngineSection[] | undefined> {
    const { rows } = await this.pool.query<{ sections: EngineSection[] }>(
      'SELECT sections FROM investors WHERE portfolioid = $1',
      [portfolioid],
    );
    return rows[0]?.sections;
  }

  /** Upserts by (entity, externalId); says which rows were new. */
  upsertRows(
    entity: EngineEntity,
    rows: readonly EngineImportRow[],
  ): Promise<{ created: number; updated: number }> {
    return this.inTransaction(async (client) => {
      let created = 0;
      for (const row of rows) {
        const { rows: result } = await client.query<{ is_new: boolean }>(
          `INSERT INTO imported_rows (entity, external_id, "values") VALUES ($1, $2, $3)
           ON CONFLICT (entity, external_id) DO UPDATE SET "values" = EXCLUDED."values", imported_at = now()
           RETURNING (xmax = 0) AS is_new`,
          [entity, row.externalId, JSON.stringify(row.values)],
        );
        if (result[0]?.is_new) created += 1;
      }
      return { created, updated: rows.length - created };
    });
  }

  async importedRows(entity: EngineEntity): Promise<StoredImportRow[]> {
    const { rows } = await this.pool.query<{
      external_id: string;
      values: EngineImportRow['values'];
      imported_at: Date;
    }>(
      `SELECT external_id, "values", imported_at FROM imported_rows WHERE entity = $1 ORDER BY imported_at, external_id`,
      [entity],
    );
    return rows.map((row) => ({
      externalId: row.external_id,
      values: row.values,
      importedAt: row.imported_at.toISOString(),
    }));
  }

  private async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

async function insertSeed(client: pg.PoolClient): Promise<void> {
  for (const [position, investor] of seedInvestors().entries()) {
    await client.query(
      'INSERT INTO investors (position, portfolioid, name, confirmation_number, sections) VALUES ($1, $2, $3, $4, $5)',
      [
        position,
        investor.portfolioid,
        investor.name,
        investor.confirmationNumber,
        JSON.stringify(investor.sections),
      ],
    );
  }
}
