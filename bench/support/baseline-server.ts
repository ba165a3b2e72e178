/**
 * The baselines of bench:auth and bench:messages, in a process of their own like the API they are compared with
 * (the load generator's process serves nothing: having served the bare route itself, it measured
 * the API a third slower afterwards):
 * - GET /hello: a bare Fastify route;
 * - GET /api/user/: the hand-written floor of an authenticated read. Fastify, jsonwebtoken
 *   verifying the HS256 access token (the secret as a KeyObject, as the API holds it), and one
 *   node-postgres primary-key read of the user row. No logging, no schema validation, no session
 *   check.
 * - GET /api/message/received: the hand-written floor of bench:messages: the same token check,
 *   then the received list's first page by one hand-written statement, answered as JSON.
 * Env: BASELINE_PORT, FLOOR_DATABASE_URL, FLOOR_JWT_SECRET, FLOOR_POOL_SIZE.
 */
import { createSecretKey } from 'node:crypto';
import Fastify from 'fastify';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { RECEIVED_BY_HAND } from './received-by-hand.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const key = createSecretKey(Buffer.from(env('FLOOR_JWT_SECRET'), 'utf8'));
const pool = new pg.Pool({
  connectionString: env('FLOOR_DATABASE_URL'),
  max: Number(env('FLOOR_POOL_SIZE')),
});
const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));

interface UserRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  tempPasswordSet: boolean;
}

/** The user a bearer access token names (HS256, checked as the API checks it), or null. */
function subjectOf(header: string | undefined): string | null {
  const token = header?.startsWith('Bearer ') ? header.slice(7) : '';
  try {
    const claims = jwt.verify(token, key, { algorithms: ['HS256'] });
    return typeof claims === 'string' || typeof claims.sub !== 'string' ? null : claims.sub;
  } catch {
    return null;
  }
}

app.get('/api/user/', async (request, reply) => {
  const userId = subjectOf(request.headers.authorization);
  if (userId === null) return reply.status(401).send({ message: 'unauthorized' });
  const { rows } = await pool.query<UserRow>(
    'SELECT id, email, "firstName", "lastName", "tempPasswordSet" FROM "User" WHERE id = $1',
    [userId],
  );
  const user = rows[0];
  if (!user) return reply.status(401).send({ message: 'unauthorized' });
  return {
    id: user.id,
    username: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    tempPasswordSet: user.tempPasswordSet,
  };
});

app.get('/api/message/received', async (request, reply) => {
  const userId = subjectOf(request.headers.authorization);
  if (userId === null) return reply.status(401).send({ message: 'unauthorized' });
  const { rows } = await pool.query(RECEIVED_BY_HAND, [userId]);
  return { messages: rows, nextCursor: null };
});

process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
await app.listen({ host: '127.0.0.1', port: Number(env('BASELINE_PORT')) });
