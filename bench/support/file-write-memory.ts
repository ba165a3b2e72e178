/**
 * A child of bench:messages: one file written through the product's file store (Prisma over
 * node-postgres, the bytes in a bytea), alone in a fresh process, so the parent can sample this
 * process's RSS around that write and tell the store's share of a message's memory from the
 * request's. Prints `ready` once warmed up (a small file written, the random bytes made), writes the
 * large file when a line arrives on stdin, prints `done`, and exits.
 * Env: FILE_DATABASE_URL, FILE_OWNER_ID (an account), FILE_BYTES.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { createPostgresFileStorage, createPrismaClient } from '@pagewright/db';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const db = createPrismaClient(env('FILE_DATABASE_URL'));
const files = createPostgresFileStorage(db);
const meta = { userId: env('FILE_OWNER_ID'), name: 'alone.bin', mimeType: 'application/octet-stream' };
await files.put(randomBytes(1024), meta);
const content = randomBytes(Number(env('FILE_BYTES')));
const lines = createInterface({ input: process.stdin });
process.stdout.write('ready\n');
await once(lines, 'line');
await files.put(content, meta);
process.stdout.write('done\n');
lines.close();
await db.$disconnect();
