// Prisma CLI configuration. Run the CLI through `node scripts/prisma.mjs` (the `db:*` scripts):
// it supplies DATABASE_URL's default and the offline schema engine (docs/offline-install.md).
import { defineConfig, env } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: env('DATABASE_URL'),
    // Optional: without it the schema engine creates and drops a temporary shadow database, which
    // needs CREATE DATABASE rights; hosts without them point this at a database of their own.
    ...(process.env.SHADOW_DATABASE_URL ? { shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL } : {}),
  },
});
