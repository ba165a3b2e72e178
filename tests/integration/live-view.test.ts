import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import request from 'supertest';
import WebSocket from 'ws';
import { createPrismaClient } from '@pagewright/db';
import { countLiveWatchers, type LiveEvent } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { startExtractorBuilder } from '../support/builder-api.js';
import { fromRoot } from '../support/paths.js';
import { countPublishedFrames } from '../support/published-frames.js';
import { STACK_WORKER_LOG } from '../support/stack.js';
import { expectNothingWithin, waitUntil } from '../support/wait.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const prefix = inject('redisKeyPrefix');
const db = createPrismaClient(inject('databaseUrl'));
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

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
  const sessions = new Set<string>();
  socket.on('message', (data) => {
    const event = JSON.parse(data.toString()) as LiveEvent;
    if (event.type !== 'frame') return;
    frames.push(Date.now());
    sessions.add(event.sessionId);
  });
  const ready = new Promise<void>((resolve) => socket.once('message', () => resolve()));
  return {
    socket,
    frames,
    sessions,
    ready,
    watch: (types: string[]) => socket.send(JSON.stringify({ watch: types })),
  };
}

const until = (check: () => boolean | Promise<boolean>, what: string) =>
  waitUntil(check, { timeoutMs: 10_000, intervalMs: 100, message: what });

/** Whether a worker of the suite's stack logged `message` for the session (their logs: stack.ts). */
function workerLogged(message: string, sessionId: string): boolean {
  const logDirectory = fromRoot('.pagewright', process.env.PW_TEST_LOG_DIRECTORY ?? 'test-logs');
  return readdirSync(logDirectory)
    .filter((name) => name === `${STACK_WORKER_LOG}.log` || name.startsWith(`${STACK_WORKER_LOG}-`))
    .flatMap((name) => readFileSync(path.join(logDirectory, name), 'utf8').split('\n'))
    .some((line) => line.includes(`"msg":"${message}"`) && line.includes(`"sessionId":"${sessionId}"`));
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
      // Nothing marks the moment a screencast would have started: the page is open and animating
      // (the step answered), and a stream publishes within a frame or two.
      await expectNothingWithin(
        1500,
        () => published.count() > 0 || viewer.frames.length > 0,
        'frames were published with nobody watching',
      );

      viewer.watch(['frame']);
      await until(() => viewer.frames.length >= 5, 'frames once watched');
      // Frames of a 2 s window, counted once a frame after its end has come.
      const windowStart = Date.now();
      const windowEnd = windowStart + 2000;
      await until(() => viewer.frames.some((at) => at >= windowEnd), 'a frame after the 2 s window');
      const inWindow = viewer.frames.filter((at) => at >= windowStart && at < windowEnd).length;
      // Thinned to one frame per 33 ms at most (the page animates at 60 fps).
      expect(inWindow).toBeGreaterThan(2);
      expect(inWindow).toBeLessThanOrEqual(2 * 31);

      // The tab closes: the worker stops streaming within a presence message (it says so in its log).
      expect([...viewer.sessions]).toHaveLength(1);
      const [sessionId = ''] = viewer.sessions;
      viewer.socket.close();
      await until(async () => (await countLiveWatchers(redis, prefix, user.id)) === 0, 'watcher gone');
      await until(
        () => workerLogged('live view paused: nobody watches', sessionId),
        'the worker to pause the live view',
      );
      const afterPause = published.count();
      // Nothing marks a frame that would wrongly follow: a stream still going would publish a few
      // within this time (the page animates at 60 fps).
      await expectNothingWithin(
        1500,
        () => published.count() > afterPause,
        'frames were published after the worker paused the view',
      );
    } finally {
      published.stop();
    }
  }, 60_000);
});
