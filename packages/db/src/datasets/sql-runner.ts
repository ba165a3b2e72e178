import type pg from 'pg';
import type { Prisma, PrismaClient } from '../generated/client.js';
import type { SqlFragment } from './sql.js';

/**
 * The one thing dataset SQL needs from a connection: run a statement built with sql`…` (sql.ts)
 * and get its rows. Dataset tables have names made at run time (one per dataset), so their SQL is
 * built here rather than by Prisma; the same code runs inside a Prisma transaction (a dataset's
 * save, a run's end) and on the API's node-postgres pool (queries, exports).
 *
 * This file is the only one allowed to hand SQL text to a driver's raw call ($queryRawUnsafe, a
 * pool's query): lint forbids it everywhere else (eslint.config.js, issue 28), and what it hands
 * over is a statement's text with $n placeholders, its values bound apart.
 */
export interface SqlRunner {
  query<Row = Record<string, unknown>>(statement: SqlFragment): Promise<Row[]>;
}

/** A Prisma client or interactive transaction as a SqlRunner (same transaction, same connection). */
export function prismaSql(client: Prisma.TransactionClient | PrismaClient): SqlRunner {
  return {
    query: <Row>(statement: SqlFragment) =>
      client.$queryRawUnsafe<Row[]>(statement.text, ...statement.values),
  };
}

/** A node-postgres pool or client as a SqlRunner. */
export function pgSql(pool: pg.Pool | pg.PoolClient | pg.Client): SqlRunner {
  return {
    query: async <Row>(statement: SqlFragment) =>
      (await pool.query(statement.text, [...statement.values])).rows as Row[],
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
