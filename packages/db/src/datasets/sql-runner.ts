import type pg from 'pg';
import type { Prisma, PrismaClient } from '../generated/client.js';

/**
 * The one thing dataset SQL needs from a connection: run a statement with bound values and get its
 * rows. Dataset tables have names made at run time (one per dataset), so their SQL is built here
 * rather than by Prisma; the same code runs inside a Prisma transaction (a dataset's save, a run's
 * end) and on the API's node-postgres pool (queries, exports).
 */
export interface SqlRunner {
  query<Row = Record<string, unknown>>(text: string, values?: readonly unknown[]): Promise<Row[]>;
}

/** A Prisma client or interactive transaction as a SqlRunner (same transaction, same connection). */
export function prismaSql(client: Prisma.TransactionClient | PrismaClient): SqlRunner {
  return {
    query: <Row>(text: string, values: readonly unknown[] = []) =>
      client.$queryRawUnsafe<Row[]>(text, ...values),
  };
}

/** A node-postgres pool or client as a SqlRunner. */
export function pgSql(pool: pg.Pool | pg.PoolClient | pg.Client): SqlRunner {
  return {
    query: async <Row>(text: string, values: readonly unknown[] = []) =>
      (await pool.query(text, values as unknown[])).rows as Row[],
  };
}

/**
 * Limits each of the product's own database sessions at connect time (issue 24): no statement runs
 * longer than `statementMs`, no transaction sits idle longer than `idleInTransactionMs` (a stalled
 * export reader, a crashed request), so neither can hold locks and a connection for ever. 0 turns
 * one off; a statement that needs longer (a dataset's table rewrite) raises it with SET LOCAL.
 */
export interface DatabaseTimeouts {
  statementMs: number;
  idleInTransactionMs: number;
}

export const sessionTimeouts = (timeouts: DatabaseTimeouts | undefined) =>
  timeouts
    ? {
        statement_timeout: timeouts.statementMs,
        idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      }
    : {};
