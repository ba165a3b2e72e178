// Proves that ./pagewright test leaves the product's own data alone (issue 37): before the suites,
// `plant` writes canary keys under the product's Redis key prefix and notes whether the product's
// database exists; after them, `check` fails when a canary was deleted, changed or even read
// (Redis's idle time of a key restarts at every read), or when the suites created that database.
//
// Usage: node scripts/test-canaries.mjs plant|check STATE_FILE
// Reads DATABASE_URL, REDIS_URL and REDIS_KEY_PREFIX as the product does (.env is loaded by then).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import pg from 'pg';

const [command, stateFile] = process.argv.slice(2);
const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/pagewright');
const productDatabase = decodeURIComponent(databaseUrl.pathname.slice(1));
const prefix = process.env.REDIS_KEY_PREFIX ?? 'pagewright:';

async function databaseExists() {
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return (
      (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [productDatabase])).rowCount === 1
    );
  } finally {
    await client.end();
  }
}

async function plant(redis) {
  const id = randomBytes(6).toString('hex');
  const keys = { [`${prefix}test-canary:${id}:string`]: `canary ${id}` };
  const hash = `${prefix}test-canary:${id}:hash`;
  await redis.set(Object.keys(keys)[0], Object.values(keys)[0]);
  await redis.hset(hash, 'canary', id);
  const state = { keys, hash, id, plantedAt: Date.now(), databaseExisted: await databaseExists() };
  writeFileSync(stateFile, JSON.stringify(state));
  console.log(
    `    canaries: 2 keys under '${prefix}'; database '${productDatabase}' ${state.databaseExisted ? 'exists' : 'is absent'}`,
  );
}

async function check(redis) {
  const state = JSON.parse(readFileSync(stateFile, 'utf8'));
  const problems = [];
  const elapsedSeconds = Math.floor((Date.now() - state.plantedAt) / 1000);
  for (const key of [...Object.keys(state.keys), state.hash]) {
    // OBJECT IDLETIME first: the reads below restart it. (Under an LFU maxmemory policy Redis
    // keeps no idle time: then only presence and value are checked.)
    const idle = await redis.call('OBJECT', 'IDLETIME', key).catch(() => null);
    if (idle === null && (await redis.exists(key)) === 0) problems.push(`${key} was deleted`);
    else if (typeof idle === 'number' && idle + 2 < elapsedSeconds)
      problems.push(`${key} was read or written ${idle} s ago, during the suites`);
  }
  for (const [key, value] of Object.entries(state.keys))
    if ((await redis.get(key)) !== value) problems.push(`${key} changed`);
  if ((await redis.hget(state.hash, 'canary')) !== state.id) problems.push(`${state.hash} changed`);
  if (!state.databaseExisted && (await databaseExists()))
    problems.push(`the suites created the product's database '${productDatabase}'`);
  await redis.del(...Object.keys(state.keys), state.hash);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`    ✗ ${problem}`);
    process.exitCode = 1;
  } else
    console.log(
      `    canaries untouched after ${elapsedSeconds} s; database '${productDatabase}' left as it was`,
    );
}

const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
try {
  if (command === 'plant') await plant(redis);
  else if (command === 'check') await check(redis);
  else throw new Error(`usage: test-canaries.mjs plant|check STATE_FILE (got ${command})`);
} finally {
  redis.disconnect();
}
