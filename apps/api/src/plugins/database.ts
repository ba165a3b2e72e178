import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { createPrismaClient, type PrismaClient } from '@pagewright/db';
import { FAIL_FAST_REDIS_OPTIONS } from '../lib/redis-fail-fast.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: PrismaClient;
    redis: Redis;
  }
}

/** Connections to PostgreSQL (Prisma over adapter-pg) and Redis, closed with the app. */
export const databasePlugin = fp(async (app: FastifyInstance) => {
  const db = createPrismaClient(app.config.DATABASE_URL);
  const redis = new Redis(app.config.REDIS_URL, { ...FAIL_FAST_REDIS_OPTIONS, lazyConnect: true });
  await redis.connect();
  app.decorate('db', db);
  app.decorate('redis', redis);
  app.addHook('onClose', async () => {
    await db.$disconnect();
    redis.disconnect();
  });
});
