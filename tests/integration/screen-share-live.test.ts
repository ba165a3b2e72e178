import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import sharp from 'sharp';
import { createPrismaClient } from '@pagewright/db';
import { SCREEN_SHARE_MESSAGES, type BuilderView, type ScreenShareLiveFrame } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const db = createPrismaClient(inject('databaseUrl'));
const api = () => request(apiUrl);
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const NAVIGATOR = { extractorType: 'NAVIGATOR' } as const;

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
  await db.$disconnect();
});

/** Opens a navigator's builder (its screen share starts with it) and gives the viewer's token. */
async function startNavigator(user: SignedInUser, name: string): Promise<string> {
  await api()
    .post('/api/extractor/start')
    .set(bearer(user.token))
    .send({ name, description: 'Watch me', extractorType: 'NAVIGATOR', viewerEmail: 'viewer@example.com' })
    .expect(201);
  const view = (
    await api().get('/api/extractor/current').query(NAVIGATOR).set(bearer(user.token)).expect(200)
  ).body as BuilderView;
  return view.screenShareUrl!.split('/').pop()!;
}

const readLive = (token: string) => api().get(`/api/extractor/token/${token}/live`);

function expectNoLivePage(answer: request.Response) {
  expect(answer.status).toBe(404);
  expect(answer.body).toEqual({ message: SCREEN_SHARE_MESSAGES.noLivePage, code: 'NOT_FOUND' });
}

/**
 * The share of the picture's top band (where late-render.html paints its dark banner) that is
 * dark: 0 for the blank page the step picture shows, most of it once the page has rendered.
 */
async function darkShareOfBanner(jpeg: Buffer): Promise<number> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const rows = Math.min(info.height, 200);
  let dark = 0;
  for (let y = 0; y < rows; y += 1)
    for (let x = 0; x < info.width; x += 1) {
      const at = (y * info.width + x) * info.channels;
      const luma = 0.299 * data[at]! + 0.587 * data[at + 1]! + 0.114 * data[at + 2]!;
      if (luma < 100) dark += 1;
    }
  return dark / (rows * info.width);
}

describe('the screen-share viewer reads the live page of the shared session (issue 22)', () => {
  it("answers that session's current frame to its token only, and nothing once it has ended", async () => {
    const [owner, stranger] = await Promise.all([
      createSignedInUser(db, apiUrl, mailUrl, 'share-live-owner'),
      createSignedInUser(db, apiUrl, mailUrl, 'share-live-stranger'),
    ]);
    const token = await startNavigator(owner, 'Late page');
    const strangerToken = await startNavigator(stranger, 'Nothing open');
    // The builder opens its page with its first step: until then there is no live page.
    expectNoLivePage(await readLive(token));

    const pageUrl = `${site.url}/pages/late-render.html`;
    await api()
      .post('/api/extractor/')
      .query(NAVIGATOR)
      .set(bearer(owner.token))
      .send({ type: 'NAVIGATE', textValue: pageUrl })
      .expect(200);

    // The page paints its banner 600 ms after load: the live frame shows it once it has.
    let frame: ScreenShareLiveFrame | undefined;
    await expect
      .poll(
        async () => {
          const answer = await readLive(token).expect(200);
          expect(answer.headers['cache-control']).toBe('private, no-store');
          frame = answer.body as ScreenShareLiveFrame;
          (await import('node:fs')).writeFileSync('/tmp/live-debug.jpg', Buffer.from(frame.image, 'base64'));
          return darkShareOfBanner(Buffer.from(frame.image, 'base64'));
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBeGreaterThan(0.5);
    expect(frame).toMatchObject({ pageUrl, width: expect.any(Number), height: expect.any(Number) });
    const jpeg = await sharp(Buffer.from(frame!.image, 'base64')).metadata();
    expect(jpeg.format).toBe('jpeg');

    // A wrong token is refused; another share's token never reaches this session.
    const wrong = await readLive(`${token.slice(0, -4)}AAAA`);
    expect(wrong.status).toBe(404);
    expect(wrong.body).toEqual({ message: SCREEN_SHARE_MESSAGES.linkInvalid, code: 'NOT_FOUND' });
    expectNoLivePage(await readLive(strangerToken));

    // The builder closes: the run has ended and there is no live page any more.
    await api().get('/api/extractor/end').query(NAVIGATOR).set(bearer(owner.token)).expect(200);
    expectNoLivePage(await readLive(token));
    expect((await api().get(`/api/extractor/token/${token}`).expect(200)).body.status).toBe('SUCCESS');
    await api().get('/api/extractor/end').query(NAVIGATOR).set(bearer(stranger.token)).expect(200);
  }, 90_000);
});
