import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import request from 'supertest';
import WebSocket from 'ws';
import { createPrismaClient } from '@pagewright/db';
import { countLiveWatchers, type LiveEvent } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { startExtractorBuilder } from '../support/builder-api.js';
import { countPublishedFrames } from '../support/published-frames.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const prefix = inject('redisKeyPrefix');
const db = createPrismaClient(inject('databaseUrl'));
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
  redis.disconnect();
  await db.$disconnect();
});

function connect(user: SignedInUser) {
  const socket = new WebSocket(`${apiUrl.replace(/^http/, 'ws')}/api/ws?accessToken=${user.token}`);
  const frames: number[] = [];
  socket.on('message', (data) => {
    if ((JSON.parse(data.toString()) as LiveEvent).type === 'frame') frames.push(Date.now());
  });
  const ready = new Promise<void>((resolve) => socket.once('message', () => resolve()));
  return { socket, frames, ready, watch: (types: string[]) => socket.send(JSON.stringify({ watch: types })) };
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the builder live view', () => {
  it('streams a page only while a socket watches it, at up to 30 frames a second', async () => {
    const user = await createSignedInUser(db, apiUrl, mailUrl, 'live-view');
    const viewer = connect(user);
    await viewer.ready;
    // The SPA says so as soon as its socket opens when no live view is on screen.
    viewer.watch([]);
    await until(async () => (await countLiveWatchers(redis, prefix, user.id)) === 0, 'no watcher');

    await startExtractorBuilder(apiUrl, user.token, 'Animated');
    await request(apiUrl)
      .post('/api/extractor/')
      .query({ extractorType: 'EXTRACTOR' })
      .set({ Authorization: `Bearer ${user.token}` })
      .send({ type: 'NAVIGATE', textValue: `${site.url}/pages/animated.html` })
      .expect(200);
    // An animated page, nobody watching: no screencast, nothing published.
    const published = await countPublishedFrames(
      process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      prefix,
      user.id,
    );
    try {
      await sleep(1500);
      expect(published.count()).toBe(0);
      expect(viewer.frames).toEqual([]);

      viewer.watch(['frame']);
      await until(() => viewer.frames.length >= 5, 'frames once watched');
      const windowStart = Date.now();
      await sleep(2000);
      const inWindow = viewer.frames.filter((at) => at >= windowStart && at < windowStart + 2000).length;
      // Thinned to one frame per 33 ms at most (the page animates at 60 fps).
      expect(inWindow).toBeGreaterThan(2);
      expect(inWindow).toBeLessThanOrEqual(2 * 31);

      // The tab closes: the worker stops streaming within a presence message.
      viewer.socket.close();
      await until(async () => (await countLiveWatchers(redis, prefix, user.id)) === 0, 'watcher gone');
      await sleep(1000);
      const afterClose = published.count();
      await sleep(1500);
      expect(published.count()).toBe(afterClose);
    } finally {
      published.stop();
    }
  }, 60_000);
});
