/**
 * Login and GET /api/user/ under concurrent load, next to a bare Fastify route measured in the same
 * run on the same machine (the baseline). Prints requests/s, p50/p99 latency and the ratio to the
 * baseline. Run: pnpm bench:auth  (needs PostgreSQL and Redis; starts its own API and database).
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import request from 'supertest';
import { createConfirmedUser } from '../tests/support/accounts.js';
import { freePort } from '../tests/support/ports.js';
import { startStack } from '../tests/support/stack.js';
import { benchNodeArgs } from './support/node-args.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface Figure {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(name: string, options: autocannon.Options): Promise<Figure> {
  const result = await autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...options });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

async function bareFastifyBaseline(): Promise<Figure> {
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'world' }));
  const port = await freePort();
  await app.listen({ host: '127.0.0.1', port });
  try {
    return await measure('bare Fastify GET /hello (baseline)', { url: `http://127.0.0.1:${port}/hello` });
  } finally {
    await app.close();
  }
}

const stack = await startStack({
  nodeArgs: benchNodeArgs('auth'),
  useBuild: process.env.BENCH_USE_SOURCE !== '1',
  // The login rate limit protects accounts; the benchmark measures raw throughput instead.
  env: { LOGIN_RATE_LIMIT_MAX: '100000000', LOG_LEVEL: 'error' },
  logDirectory: 'bench-logs',
});
try {
  const user = await createConfirmedUser(stack.apiUrl, stack.mailUrl, 'bench');
  await request(stack.apiUrl)
    .get('/api/user/')
    .set('Authorization', `Bearer ${user.accessToken}`)
    .expect(200);

  const baseline = await bareFastifyBaseline();
  const health = await measure('GET /api/health (db + redis ping)', { url: `${stack.apiUrl}/api/health` });
  const currentUser = await measure('GET /api/user/ (JWT + user row)', {
    url: `${stack.apiUrl}/api/user/`,
    headers: { authorization: `Bearer ${user.accessToken}` },
  });
  const login = await measure('POST /api/auth (argon2id verify + session)', {
    url: `${stack.apiUrl}/api/auth`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, password: user.password }),
  });

  const rows = [baseline, health, currentUser, login];
  console.log(
    `\nPagewright auth benchmark: ${CONNECTIONS} connections, ${DURATION_S} s each, ${new Date().toISOString()}`,
  );
  console.log('| what | req/s | p50 ms | p99 ms | errors | non-2xx | req/s vs baseline |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    const ratio = r.requestsPerSecond / baseline.requestsPerSecond;
    console.log(
      `| ${r.name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${ratio.toFixed(3)} |`,
    );
  }
} finally {
  await stack.stop();
}
