import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import request from 'supertest';
import { createPrismaClient, type ExtractorType, type Prisma, type RunStatus } from '@pagewright/db';
import {
  MESSAGES,
  SCREEN_SHARE_MESSAGES,
  type FileDownloadLink,
  type ScreenShareView,
} from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';

const apiUrl = inject('apiUrl');
const mailUrl = inject('mailUrl');
const db = createPrismaClient(inject('databaseUrl'));
const api = () => request(apiUrl);

const HOUR_MS = 3_600_000;
/** The API keeps only the hex SHA-256 of a token (apps/api/src/lib/tokens.ts). */
const sha256 = (value: string | Buffer) => createHash('sha256').update(value).digest('hex');

interface User {
  id: string;
}

/** Raw bytes of an answer, whatever its type (supertest only buffers some types). */
async function fetchBytes(path: string) {
  const response = await fetch(`${apiUrl}${path}`);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function signUp(label: string): Promise<User> {
  const account = await createConfirmedUser(apiUrl, mailUrl, label);
  const row = await db.user.findUniqueOrThrow({ where: { email: account.username.toLowerCase() } });
  return { id: row.id };
}

async function storeFile(user: User, name: string, mimeType: string, content: Buffer): Promise<string> {
  const file = await db.storedFile.create({
    data: {
      userId: user.id,
      name,
      mimeType,
      size: content.length,
      content: new Uint8Array(content),
      sha256: sha256(content),
    },
  });
  return file.id;
}

async function insertNavigator(user: User, name: string, extractorType: ExtractorType = 'NAVIGATOR') {
  const extractor = await db.extractor.create({
    data: {
      userId: user.id,
      name,
      description: 'Screen Share',
      extractorType,
      viewerEmail: 'viewer@example.com',
    },
  });
  return extractor.id;
}

type StepRow = Omit<Prisma.RunStepCreateManyInput, 'runId'>;

async function insertRun(
  user: User,
  extractorId: string,
  status: RunStatus,
  steps: StepRow[],
  extra: { errorMessage?: string; startedAt?: Date } = {},
) {
  const run = await db.run.create({
    data: { extractorId, userId: user.id, status, trigger: 'MANUAL', ...extra },
  });
  if (steps.length > 0)
    await db.runStep.createMany({ data: steps.map((step) => ({ ...step, runId: run.id })) });
  return run.id;
}

/** Mints a link the way the service does (the builder calls `share` once it opens sessions). */
async function mintShare(
  extractorId: string,
  runId: string | null,
  options: { expiresAt?: Date; revokedAt?: Date } = {},
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.screenShareToken.create({
    data: {
      extractorId,
      runId,
      tokenHash: sha256(token),
      expiresAt: options.expiresAt ?? new Date(Date.now() + 24 * HOUR_MS),
      revokedAt: options.revokedAt ?? null,
    },
  });
  return token;
}

function expectLinkInvalid(answer: request.Response) {
  expect(answer.status).toBe(404);
  expect(answer.body).toEqual({ message: SCREEN_SHARE_MESSAGES.linkInvalid, code: 'NOT_FOUND' });
}

const pageJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);
const statementPdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(128)]);
const untrustedHtml = '<html><body><script>alert(document.cookie)</script><p>Balance</p></body></html>';
const fileName = 'relevé 2024 "final".pdf';
const t0 = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

let owner: User;
let stranger: User;
let navigatorId: string;
let runId: string;
let strangerNavigatorId: string;
let strangerRunId: string;

beforeAll(async () => {
  [owner, stranger] = await Promise.all([signUp('share-owner'), signUp('share-stranger')]);
  navigatorId = await insertNavigator(owner, 'Bank statements');
  const screenshot = await storeFile(owner, 'page-10.jpg', 'image/jpeg', pageJpeg);
  const download = await storeFile(owner, fileName, 'application/pdf', statementPdf);
  runId = await insertRun(
    owner,
    navigatorId,
    'ERROR',
    [
      // Inserted out of order: the view orders by sequence, then time.
      {
        sequence: 30,
        actionType: 'CLICK',
        label: 'Next',
        pageUrl: 'https://bank.example/next',
        timestamp: at(30),
      },
      {
        sequence: 10,
        actionType: 'NAVIGATE',
        pageUrl: 'https://bank.example/login',
        timestamp: at(10),
        pageScreenshotFileId: screenshot,
        normalizedHtml: untrustedHtml,
      },
      {
        sequence: 20,
        actionType: 'GET_FILE',
        label: 'Statement',
        pageUrl: 'https://bank.example/statements',
        timestamp: at(20),
        fileId: download,
      },
    ],
    { errorMessage: 'No Such Element', startedAt: at(0) },
  );

  strangerNavigatorId = await insertNavigator(stranger, 'Private navigator');
  const strangerShot = await storeFile(stranger, 'secret.jpg', 'image/jpeg', randomBytes(32));
  // Newer than the owner's run, so "the latest run" must still mean the owner navigator's.
  strangerRunId = await insertRun(stranger, strangerNavigatorId, 'SUCCESS', [
    {
      sequence: 10,
      actionType: 'NAVIGATE',
      label: 'stranger secret',
      pageUrl: 'https://stranger.example/secret',
      timestamp: new Date(),
      pageScreenshotFileId: strangerShot,
      normalizedHtml: '<p>stranger secret</p>',
    },
  ]);
});

afterAll(async () => {
  await db.$disconnect();
});

describe('GET /extractor/token/:token (public screen-share view)', () => {
  it('shows the shared navigator run without a session, in sequence order', async () => {
    const token = await mintShare(navigatorId, runId);
    const answer = await api().get(`/api/extractor/token/${token}`).expect(200);
    const view = answer.body as ScreenShareView;
    expect(view).toEqual({
      name: 'Bank statements',
      userFullName: 'Ada Lovelace',
      status: 'ERROR',
      errorMessage: 'No Such Element',
      timestamp: at(30).toISOString(),
      pageUrl: 'https://bank.example/next',
      actions: [
        {
          sequence: 10,
          type: 'NAVIGATE',
          label: null,
          pageUrl: 'https://bank.example/login',
          timestamp: at(10).toISOString(),
          hasScreen: true,
          hasHtml: true,
          hasFile: false,
          fileName: null,
        },
        {
          sequence: 20,
          type: 'GET_FILE',
          label: 'Statement',
          pageUrl: 'https://bank.example/statements',
          timestamp: at(20).toISOString(),
          hasScreen: false,
          hasHtml: false,
          hasFile: true,
          fileName,
        },
        {
          sequence: 30,
          type: 'CLICK',
          label: 'Next',
          pageUrl: 'https://bank.example/next',
          timestamp: at(30).toISOString(),
          hasScreen: false,
          hasHtml: false,
          hasFile: false,
          fileName: null,
        },
      ],
    });
    // Only the hash is stored.
    expect(await db.screenShareToken.count({ where: { tokenHash: token } })).toBe(0);
    expect(await db.screenShareToken.count({ where: { tokenHash: sha256(token) } })).toBe(1);
  });

  it('a run still recording shows EXECUTING from its start; a link before its run waits', async () => {
    const live = await insertNavigator(owner, 'Live session');
    const waiting = await mintShare(live, null);
    const before = (await api().get(`/api/extractor/token/${waiting}`).expect(200)).body as ScreenShareView;
    expect(before).toMatchObject({ name: 'Live session', status: 'EXECUTING', pageUrl: null, actions: [] });
    const minted = await db.screenShareToken.findUniqueOrThrow({ where: { tokenHash: sha256(waiting) } });
    expect(before.timestamp).toBe(minted.createdAt.toISOString());

    const startedAt = new Date(Date.now() - 1000);
    await insertRun(owner, live, 'EXECUTING', [], { startedAt });
    const after = (await api().get(`/api/extractor/token/${waiting}`).expect(200)).body as ScreenShareView;
    expect(after).toEqual({
      name: 'Live session',
      userFullName: 'Ada Lovelace',
      status: 'EXECUTING',
      errorMessage: null,
      timestamp: startedAt.toISOString(),
      pageUrl: null,
      actions: [],
    });
  });

  it('unknown, expired and withdrawn links are 404 with a clear message, never 500', async () => {
    const expired = await mintShare(navigatorId, runId, { expiresAt: new Date(Date.now() - 1000) });
    const revoked = await mintShare(navigatorId, runId, { revokedAt: new Date() });
    const unknown = randomBytes(32).toString('base64url');
    for (const token of [unknown, expired, revoked, 'x', encodeURIComponent('../../etc/passwd')]) {
      expectLinkInvalid(await api().get(`/api/extractor/token/${token}`));
      expectLinkInvalid(await api().get(`/api/extractor/token/${token}/step/10/screen`));
      expectLinkInvalid(await api().get(`/api/extractor/token/${token}/step/10/html`));
      expectLinkInvalid(await api().get(`/api/extractor/token/${token}/step/20/file`));
    }
  });

  it('a link of an extractor that is not a navigator shows nothing', async () => {
    const extractor = await insertNavigator(owner, 'Plain extractor', 'EXTRACTOR');
    const plainRun = await insertRun(owner, extractor, 'SUCCESS', []);
    expectLinkInvalid(await api().get(`/api/extractor/token/${await mintShare(extractor, plainRun)}`));
  });
});

describe('step content behind a screen-share link', () => {
  let token: string;
  beforeAll(async () => {
    token = await mintShare(navigatorId, runId);
  });

  it('serves the page screenshot with its stored type', async () => {
    const { response, bytes } = await fetchBytes(`/api/extractor/token/${token}/step/10/screen`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(bytes.equals(pageJpeg)).toBe(true);

    const missing = await api().get(`/api/extractor/token/${token}/step/30/screen`).expect(404);
    expect(missing.body).toEqual({ message: MESSAGES['navigator.screenshot.error'], code: 'NOT_FOUND' });
    await api().get(`/api/extractor/token/${token}/step/99/screen`).expect(404);
  });

  it('serves the normalized HTML as sandboxed plain text, never as a page', async () => {
    const answer = await api().get(`/api/extractor/token/${token}/step/10/html`).expect(200);
    expect(answer.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toBe('sandbox');
    expect(answer.text).toBe(untrustedHtml);

    const none = await api().get(`/api/extractor/token/${token}/step/20/html`).expect(404);
    expect(none.body).toEqual({ message: SCREEN_SHARE_MESSAGES.stepContentMissing, code: 'NOT_FOUND' });
  });

  it('hands out a one-time download link that works exactly once', async () => {
    const answer = await api().get(`/api/extractor/token/${token}/step/20/file`).expect(200);
    const link = answer.body as FileDownloadLink;
    expect(link.token).toMatch(/^[\w-]{43}$/);
    expect(link.url).toBe(`/file/${link.token}`);
    const lifetime = new Date(link.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000);
    const row = await db.fileDownloadToken.findUniqueOrThrow({ where: { tokenHash: sha256(link.token) } });
    expect(row.usedAt).toBeNull();

    const { response, bytes } = await fetchBytes(`/api${link.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="relev_ 2024 _final_.pdf"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(bytes.equals(statementPdf)).toBe(true);
    expect((await db.fileDownloadToken.findUniqueOrThrow({ where: { id: row.id } })).usedAt).not.toBeNull();

    const again = await api().get(`/api${link.url}`).expect(404);
    expect(again.body).toEqual({ message: SCREEN_SHARE_MESSAGES.downloadLinkInvalid, code: 'NOT_FOUND' });
  });

  it('expired or unknown download links are 404', async () => {
    const file = await db.runStep.findFirstOrThrow({
      where: { runId, sequence: 20 },
      select: { fileId: true },
    });
    const stale = randomBytes(32).toString('base64url');
    await db.fileDownloadToken.create({
      data: { fileId: file.fileId!, tokenHash: sha256(stale), expiresAt: new Date(Date.now() - 1000) },
    });
    for (const t of [stale, randomBytes(32).toString('base64url')]) {
      const answer = await api().get(`/api/file/${t}`).expect(404);
      expect(answer.body).toEqual({ message: SCREEN_SHARE_MESSAGES.downloadLinkInvalid, code: 'NOT_FOUND' });
    }
  });

  it('a step without a file gives no download link', async () => {
    const answer = await api().get(`/api/extractor/token/${token}/step/10/file`).expect(404);
    expect(answer.body).toEqual({ message: SCREEN_SHARE_MESSAGES.stepContentMissing, code: 'NOT_FOUND' });
  });

  it('a withdrawn link stops serving content at once', async () => {
    const withdrawn = await mintShare(navigatorId, runId);
    await api().get(`/api/extractor/token/${withdrawn}/step/10/screen`).expect(200);
    await db.screenShareToken.update({
      where: { tokenHash: sha256(withdrawn) },
      data: { revokedAt: new Date() },
    });
    expectLinkInvalid(await api().get(`/api/extractor/token/${withdrawn}/step/10/screen`));
  });
});

describe("a link to one user's navigator never shows another user's runs", () => {
  it('without a pinned run it shows the latest run of that navigator, not a newer one elsewhere', async () => {
    const token = await mintShare(navigatorId, null);
    const view = (await api().get(`/api/extractor/token/${token}`).expect(200)).body as ScreenShareView;
    expect(view.name).toBe('Bank statements');
    expect(view.actions.map((action) => action.sequence)).toEqual([10, 20, 30]);
    expect(JSON.stringify(view)).not.toContain('stranger');
  });

  it("a link pinned to another user's run shows and serves nothing of it", async () => {
    // share() refuses such a pin; a row like this can only come from elsewhere, and must stay harmless.
    const token = await mintShare(navigatorId, strangerRunId);
    const view = (await api().get(`/api/extractor/token/${token}`).expect(200)).body as ScreenShareView;
    expect(view).toMatchObject({ name: 'Bank statements', actions: [], pageUrl: null });
    expect(JSON.stringify(view)).not.toContain('stranger');
    for (const part of ['screen', 'html', 'file']) {
      const answer = await api().get(`/api/extractor/token/${token}/step/10/${part}`).expect(404);
      expect(JSON.stringify(answer.body)).not.toContain('stranger');
    }
  });

  it("the stranger's own link shows only the stranger's run", async () => {
    const token = await mintShare(strangerNavigatorId, strangerRunId);
    const view = (await api().get(`/api/extractor/token/${token}`).expect(200)).body as ScreenShareView;
    expect(view).toMatchObject({ name: 'Private navigator', status: 'SUCCESS' });
    expect(view.actions.map((action) => action.label)).toEqual(['stranger secret']);
  });
});

describe('public link calls are rate-limited per client address', () => {
  // Last in this file: it spends the download budget of 127.0.0.1 for the rest of the minute.
  it('answers 429 with its own text once the download budget is spent', async () => {
    const statuses: number[] = [];
    let limited: request.Response | undefined;
    for (let i = 0; i < 31 && !limited; i++) {
      const answer = await api().get(`/api/file/${randomBytes(32).toString('base64url')}`);
      statuses.push(answer.status);
      if (answer.status === 429) limited = answer;
    }
    expect(statuses.slice(0, -1).every((status) => status === 404)).toBe(true);
    expect(limited?.body).toEqual({ message: SCREEN_SHARE_MESSAGES.tooManyRequests, code: 'RATE_LIMITED' });
  });
});
