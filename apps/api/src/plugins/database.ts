import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { createDatabase, type PrismaClient } from '@pagewright/db';
import { databaseTimeoutsOf } from '@pagewright/shared';
import { FAIL_FAST_REDIS_OPTIONS } from '../lib/redis-fail-fast.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: PrismaClient;
    /**
     * The pool under `db`, for the few queries on every request's path (the session check, the
     * dashboard list) that Prisma's per-call overhead would make the API's main cost. Repositories
     * only, like `db`.
     */
    sql: pg.Pool;
    redis: Redis;
  }
}

/** Connections to PostgreSQL (Prisma over adapter-pg, one pool) and Redis, closed with the app. */
export const databasePlugin = fp(async (app: FastifyInstance) => {
  const { prisma: db, pool } = createDatabase(app.config.DATABASE_URL, {
    poolSize: app.config.DATABASE_POOL_SIZE,
    timeouts: databaseTimeoutsOf(app.config),
  });
  // An idle connection that drops (database restart) must not take the API down with it.
  pool.on('error', (error) => app.log.warn({ err: error }, 'idle PostgreSQL connection failed'));
  const redis = new Redis(app.config.REDIS_URL, { ...FAIL_FAST_REDIS_OPTIONS, lazyConnect: true });
  await redis.connect();
  app.decorate('db', db);
  app.decorate('sql', pool);
  app.decorate('redis', redis);
  app.addHook('onClose', async () => {
    await db.$disconnect();
    await pool.end();
    redis.disconnect();
  });
});
