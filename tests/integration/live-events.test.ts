import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { LIVE_SOCKET_CLOSE, userEventsChannel, type LiveEvent } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';
import { withDatabase } from '../support/test-database.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const prefix = inject('redisKeyPrefix');
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
afterAll(() => redis.disconnect());

const wsUrl = (token?: string) =>
  `${apiUrl.replace(/^http/, 'ws')}/api/ws${token ? `?accessToken=${encodeURIComponent(token)}` : ''}`;

/** Opens a socket and collects what arrives, until it closes. */
function connect(token?: string) {
  const socket = new WebSocket(wsUrl(token));
  const received: LiveEvent[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  socket.on('message', (data) => received.push(JSON.parse(data.toString()) as LiveEvent));
  const waitFor = (predicate: (e: LiveEvent) => boolean, timeoutMs = 5000) =>
    vi.waitFor(
      () => {
        const found = received.find(predicate);
        if (!found) throw new Error(`no matching event; got ${JSON.stringify(received)}`);
        return found;
      },
      { timeout: timeoutMs, interval: 25 },
    );
  return { socket, received, closed, waitFor };
}

const runStatus = (extractorId: string): LiveEvent => ({
  type: 'run-status',
  extractorId,
  runId: 'run-1',
  status: 'SUCCESS',
});

describe('live events over the WebSocket', () => {
  it('refuses a socket without a valid access token', async () => {
    expect((await connect().closed).code).toBe(LIVE_SOCKET_CLOSE.unauthorized);
    expect((await connect('not.a.token').closed).code).toBe(LIVE_SOCKET_CLOSE.unauthorized);
  });

  it('delivers a user’s events to that user’s sockets only, and drops malformed ones', async () => {
    const a = await createConfirmedUser(apiUrl, mailUrl, 'live-a');
    const b = await createConfirmedUser(apiUrl, mailUrl, 'live-b');
    const aLaptop = connect(a.accessToken);
    const aPhone = connect(a.accessToken);
    const bSocket = connect(b.accessToken);
    const aReady = await aLaptop.waitFor((e) => e.type === 'ready');
    await aPhone.waitFor((e) => e.type === 'ready');
    const bReady = await bSocket.waitFor((e) => e.type === 'ready');
    expect(aReady.type === 'ready' && bReady.type === 'ready' && aReady.userId !== bReady.userId).toBe(true);
    const aUserId = aReady.type === 'ready' ? aReady.userId : '';
    const bUserId = bReady.type === 'ready' ? bReady.userId : '';

    await redis.publish(userEventsChannel(prefix, aUserId), 'not json at all');
    await redis.publish(userEventsChannel(prefix, aUserId), '{"type":"run-status","status":"NOPE"}');
    await redis.publish(userEventsChannel(prefix, aUserId), JSON.stringify(runStatus('extractor-of-a')));
    await aLaptop.waitFor((e) => e.type === 'run-status');
    await aPhone.waitFor((e) => e.type === 'run-status');
    // An event of B's own, published after A's: B's socket gets it after anything of A's it would
    // have got (one publisher here, one subscriber connection in the API: Redis keeps the order).
    await redis.publish(userEventsChannel(prefix, bUserId), JSON.stringify(runStatus('extractor-of-b')));
    await bSocket.waitFor((e) => e.type === 'run-status');
    expect(bSocket.received.filter((e) => e.type !== 'ready')).toEqual([runStatus('extractor-of-b')]);
    expect(aLaptop.received.filter((e) => e.type === 'run-status')).toEqual([runStatus('extractor-of-a')]);

    for (const s of [aLaptop, aPhone, bSocket]) s.socket.close();
  });

  it('closes with 4403 while the password must be changed', async () => {
    const user = await createConfirmedUser(apiUrl, mailUrl, 'live-expired');
    await withDatabase(inject('databaseUrl'), (db) =>
      db.query(`UPDATE "User" SET "passwordChangedAt" = now() - interval '91 days' WHERE email = $1`, [
        user.username,
      ]),
    );
    expect((await connect(user.accessToken).closed).code).toBe(LIVE_SOCKET_CLOSE.passwordChangeRequired);
  });
});
