import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import WebSocket from 'ws';
import { createPrismaClient } from '@pagewright/db';
import {
  MESSAGES,
  MESSAGE_TOKEN_HEADER,
  QUEUES,
  queuePrefix,
  replyAllPrefill,
  type LiveEvent,
  type MessageDto,
  type MessageListResponse,
  type SendMessageRequest,
} from '@pagewright/shared';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { createInbox, type CaughtMail } from '../support/inbox.js';
import { freePort, waitFor } from '../support/ports.js';
import { startStack, type TestStack } from '../support/stack.js';

/**
 * Messaging (issue 14) on a stack of its own whose mail server sits behind a TCP proxy the test can
 * close: sending to accounts and outside addresses, the e-mailed links opening the thread without a
 * session, replies through a link, Reply All, Bcc privacy, a 10 MB file byte for byte, the body
 * limit, delete per side, another user's reach, and a mail server that is away for a while.
 */

type Account = SignedInUser;

let stack: TestStack;
let db: ReturnType<typeof createPrismaClient>;
let connection: Redis;
let inbox: ReturnType<typeof createInbox>;
let ann: Account;
let bob: Account;
let cid: Account;

const api = () => request(stack.apiUrl);
const bearer = (account: Account) => ({ Authorization: `Bearer ${account.token}` });

/**
 * POSTs a JSON body that declares `length` bytes and sends only its start, then reads the answer.
 * The API refuses an over-limit body from its declared length; a client still writing the rest
 * races the closing connection (EPIPE before the answer is read, on a busy machine).
 */
function postDeclaringLength(
  path: string,
  account: Account,
  length: number,
): Promise<{ status: number; body: { message?: string } }> {
  return new Promise((resolve, reject) => {
    let isAnswered = false;
    const sent = http.request(
      new URL(path, stack.apiUrl),
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${account.token}`,
          'content-type': 'application/json',
          'content-length': String(length),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          isAnswered = true;
          sent.destroy();
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as { message?: string } });
        });
      },
    );
    sent.on('error', (error) => {
      if (!isAnswered) reject(error);
    });
    sent.write(
      `{"to":"${bob.email}","subject":"big","body":"big","attachments":[{"name":"big.bin","content":"`,
    );
  });
}
const outside = (label: string) => `${label}-${randomUUID().slice(0, 8)}@outside.example.com`;

/** A TCP proxy in front of maildev's SMTP port that the test closes to play a mail server that is down. */
function createSmtpProxy(port: number) {
  let target = 0;
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      if (server) {
        resolve();
        return;
      }
      server = net.createServer((client) => {
        const upstream = net.connect(target, '127.0.0.1');
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  return {
    open,
    setTarget: (smtpPort: number) => {
      target = smtpPort;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        if (server) server.close(() => resolve());
        else resolve();
        server = null;
      }),
  };
}
let proxy: ReturnType<typeof createSmtpProxy>;

const signUp = (label: string): Promise<Account> =>
  createSignedInUser(db, stack.apiUrl, stack.mailUrl, label);

async function send(account: Account, message: Partial<SendMessageRequest>): Promise<string> {
  const response = await api()
    .post('/api/message/add')
    .set(bearer(account))
    .send({ subject: `s-${randomUUID()}`, body: 'Hello there', ...message });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.message).toBe(MESSAGES['message.sent']);
  return response.body.id as string;
}

/** The link token in a message e-mail. */
function linkToken(mail: CaughtMail): string {
  const match = /\/message\/token\/([\w-]+)/u.exec(mail.text);
  if (!match?.[1]) throw new Error(`no message link in: ${mail.text}`);
  return match[1];
}

const received = async (account: Account, query = '') =>
  (await api().get(`/api/message/received${query}`).set(bearer(account)).expect(200))
    .body as MessageListResponse;
/** The spec's call for the sent list (data spec §7); /message/sent answers the same. */
const sent = async (account: Account, path = '/api/message/') =>
  (await api().get(path).set(bearer(account)).expect(200)).body as MessageListResponse;

beforeAll(async () => {
  const proxyPort = await freePort();
  proxy = createSmtpProxy(proxyPort);
  await proxy.open();
  // The product knows only the proxy; it forwards to maildev once the stack says where that is
  // (nothing sends mail before the first sign-up).
  stack = await startStack({
    useBuild: process.env.PW_TEST_USE_BUILD === '1',
    env: { SMTP_PORT: String(proxyPort) },
  }).catch(async (error: unknown) => {
    await proxy.close();
    throw error;
  });
  proxy.setTarget(stack.smtpPort);
  db = createPrismaClient(stack.databaseUrl);
  connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  inbox = createInbox(stack.mailUrl);
  [ann, bob, cid] = await Promise.all([signUp('ann'), signUp('bob'), signUp('cid')]);
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  connection?.disconnect();
  await stack?.stop();
  await proxy?.close();
});

describe('sending and reading', () => {
  it('reaches an account and an outside address, whose e-mailed link opens the thread without a session', async () => {
    const stranger = outside('olga');
    const subject = `Quarterly figures ${randomUUID()}`;
    const id = await send(ann, {
      to: `${bob.email}; ${stranger}`,
      cc: cid.email,
      subject,
      body: 'See the numbers.',
    });

    const [bobMail, olgaMail, cidMail] = await Promise.all([
      inbox.delivered(bob.email, subject),
      inbox.delivered(stranger, subject),
      inbox.delivered(cid.email, subject),
    ]);
    for (const mail of [bobMail, olgaMail, cidMail]) {
      expect(mail.text).toContain('See the numbers.');
      expect(mail.html).toContain('See the numbers.');
      expect(mail.text).toContain(`${stack.apiUrl}/message/token/`);
      expect(mail.to.map(({ address }) => address).sort()).toEqual([bob.email, stranger].sort());
    }
    // Every recipient has a link of their own; only its hash is stored.
    const tokens = [bobMail, olgaMail, cidMail].map(linkToken);
    expect(new Set(tokens).size).toBe(3);
    const stored = await db.messageRecipient.findMany({ where: { messageId: id } });
    expect(stored.map((row) => row.tokenHash).sort()).toEqual(
      tokens.map((token) => createHash('sha256').update(token).digest('hex')).sort(),
    );
    expect(stored.every((row) => row.mailedAt !== null)).toBe(true);

    // The link's page is the SPA; its calls need no session.
    const page = await fetch(`${stack.apiUrl}/message/token/${tokens[1]}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const read = await api().get(`/api/message/token/${tokens[1]}`).expect(200);
    expect(read.body).toMatchObject({
      id,
      from: ann.email,
      to: `${bob.email}; ${stranger}`,
      cc: cid.email,
      bcc: '',
      subject,
      body: 'See the numbers.',
      replyOf: null,
      emailToken: tokens[1],
    });

    // Bob's dashboard lists it (unread, then read once opened); Ann's sent list too.
    const bobRow = (await received(bob)).messages.find((row) => row.id === id);
    expect(bobRow).toMatchObject({ subject, from: ann.email, isRead: false, attachmentCount: 0 });
    await api().get(`/api/message/id/${id}`).set(bearer(bob)).expect(200);
    expect((await received(bob)).messages.find((row) => row.id === id)?.isRead).toBe(true);
    expect((await sent(ann)).messages.map((row) => row.id)).toContain(id);
    expect((await sent(ann, '/api/message/sent')).messages.map((row) => row.id)).toContain(id);
    await api().get('/api/message/').expect(401);
  });

  it('answers every field rule with the spec text and the field, keeping nothing', async () => {
    const cases: [Partial<SendMessageRequest>, string, string][] = [
      [{ to: '  ' }, MESSAGES['message.to.required'], 'to'],
      [{ to: bob.email, subject: ' ' }, MESSAGES['message.subject.required'], 'subject'],
      [{ to: bob.email, body: '\n' }, MESSAGES['message.body.required'], 'body'],
      [
        { to: `${bob.email}; not-an-address` },
        'Field TO has an address that is not valid: not-an-address',
        'to',
      ],
      [
        { to: bob.email, subject: 'x'.repeat(1025) },
        'Field SUBJECT must be at most 1024 characters',
        'subject',
      ],
      [{ to: bob.email, body: 'x'.repeat(1025) }, 'Field BODY must be at most 1024 characters', 'body'],
      [{ to: bob.email, cc: `${'a'.repeat(1020)}@x.io` }, 'Field CC must be at most 1024 characters', 'cc'],
    ];
    const before = await db.message.count();
    for (const [message, text, field] of cases) {
      const response = await api()
        .post('/api/message/add')
        .set(bearer(ann))
        .send({ subject: 'Subject', body: 'Body', ...message });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message: text, field });
    }
    expect(await db.message.count()).toBe(before);
    await api().post('/api/message/add').send({ to: bob.email, subject: 's', body: 'b' }).expect(401);
  });

  it('tells a recipient at once over the WebSocket', async () => {
    const socket = new WebSocket(
      `${stack.apiUrl.replace(/^http/u, 'ws')}/api/ws?accessToken=${encodeURIComponent(bob.token)}`,
    );
    const events: LiveEvent[] = [];
    socket.on('message', (data) => events.push(JSON.parse(data.toString()) as LiveEvent));
    await waitFor(
      async () => (events.some((event) => event.type === 'ready') ? true : undefined),
      'socket ready',
    );
    const id = await send(ann, { to: bob.email });
    await waitFor(
      async () => events.find((event) => event.type === 'message-received' && event.messageId === id),
      'the message-received event',
    );
    socket.close();
  });

  it('pages the received list newest first', async () => {
    const dan = await signUp('dan');
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await send(ann, { to: dan.email }));
    const first = await received(dan, '?limit=2');
    expect(first.messages.map((row) => row.id)).toEqual([ids[4], ids[3]]);
    const second = await received(dan, `?limit=2&before=${encodeURIComponent(first.nextCursor ?? '')}`);
    expect(second.messages.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    const third = await received(dan, `?limit=2&before=${encodeURIComponent(second.nextCursor ?? '')}`);
    expect(third.messages.map((row) => row.id)).toEqual([ids[0]]);
    expect(third.nextCursor).toBeNull();
    await api().get('/api/message/received?before=yesterday').set(bearer(dan)).expect(400);
    // user-id answers the caller's own list only.
    await api().get(`/api/message/user-id/${dan.id}`).set(bearer(dan)).expect(200);
    await api().get(`/api/message/user-id/${ann.id}`).set(bearer(dan)).expect(404);
  });
});

describe('replies', () => {
  it('lets an outside address reply through its link, with Reply All to the sender and the other recipients', async () => {
    const stranger = outside('pia');
    const subject = `Contract ${randomUUID()}`;
    const id = await send(ann, { to: `${stranger}; ${bob.email}`, subject });
    const token = linkToken(await inbox.delivered(stranger, subject));
    const opened = (await api().get(`/api/message/token/${token}`).expect(200)).body as MessageDto;

    // The sender is not among the recipients: Reply All goes to the sender plus the recipients,
    // leaving out the replier (the link's address).
    expect(opened.readerEmail).toBe(stranger);
    const prefill = replyAllPrefill(opened);
    expect(prefill).toEqual({
      replyOf: id,
      from: token,
      subject: `Re: ${subject}`,
      to: `${ann.email};${bob.email}`,
      cc: '',
    });
    const reply = await api()
      .post('/api/message/reply')
      .send({ ...prefill, body: 'Signed and attached.' })
      .expect(200);
    await Promise.all([ann.email, bob.email].map((address) => inbox.delivered(address, `Re: ${subject}`)));
    expect(await inbox.deliveredAddresses(`Re: ${subject}`)).toEqual([ann.email, bob.email].sort());

    // The reply joins the thread: from the link's address, under the first message.
    const replies = (await api().get(`/api/message/reply-of/${id}`).set(bearer(ann)).expect(200))
      .body as MessageDto[];
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({
      id: reply.body.id,
      from: stranger,
      replyOf: id,
      body: 'Signed and attached.',
    });
    expect((await received(ann)).messages[0]).toMatchObject({ id: reply.body.id, from: stranger });
    // The link holder reads the thread with its token in the header, no session.
    await api().get(`/api/message/id/${id}`).set(MESSAGE_TOKEN_HEADER, token).expect(200);
    const linkReplies = await api()
      .get(`/api/message/reply-of/${id}`)
      .set(MESSAGE_TOKEN_HEADER, token)
      .expect(200);
    expect(linkReplies.body).toHaveLength(1);

    // Without a session or a live link, a reply is refused.
    const refused = await api()
      .post('/api/message/reply')
      .send({ ...prefill, from: 'made-up', body: 'x' });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(MESSAGES['message.reply.sign.in']);
  });

  it('sends Reply All to the recipients only when the sender is among them', async () => {
    const subject = `Self copy ${randomUUID()}`;
    await send(ann, { to: `${ann.email}; ${bob.email}`, subject });
    const token = linkToken(await inbox.delivered(bob.email, subject));
    const opened = (await api().get(`/api/message/token/${token}`).expect(200)).body as MessageDto;
    const prefill = replyAllPrefill(opened);
    // The recipients only, without Bob, who replies.
    expect(prefill.to).toBe(ann.email);
    // Bob is signed in too; the link he opened decides who writes.
    await api()
      .post('/api/message/reply')
      .set(bearer(bob))
      .send({ ...prefill, body: 'Noted.' })
      .expect(200);
    await inbox.delivered(ann.email, `Re: ${subject}`);
    expect(await inbox.deliveredAddresses(`Re: ${subject}`)).toEqual([ann.email]);
  });

  it('keeps the Cc as Cc on Reply All and leaves the replier out (issue 23)', async () => {
    const stranger = outside('quin');
    const subject = `Budget ${randomUUID()}`;
    const id = await send(ann, { to: bob.email, cc: `${cid.email}; ${stranger}`, subject });
    const opened = (await api().get(`/api/message/id/${id}`).set(bearer(bob)).expect(200)).body as MessageDto;
    expect(opened.readerEmail).toBe(bob.email);
    const prefill = replyAllPrefill(opened);
    expect(prefill).toMatchObject({ to: ann.email, cc: `${cid.email};${stranger}` });

    const reply = await api()
      .post('/api/message/reply')
      .set(bearer(bob))
      .send({ ...prefill, body: 'Looks right.' })
      .expect(200);
    const stored = (await api().get(`/api/message/id/${reply.body.id}`).set(bearer(cid)).expect(200))
      .body as MessageDto;
    expect(stored).toMatchObject({ from: bob.email, to: ann.email, cc: `${cid.email};${stranger}` });
    await Promise.all(
      [ann.email, cid.email, stranger].map((address) => inbox.delivered(address, `Re: ${subject}`)),
    );
    expect(await inbox.deliveredAddresses(`Re: ${subject}`)).toEqual([ann.email, cid.email, stranger].sort());
    // Cid reads it as Cc, and Bob, who wrote it, gets no copy of his own.
    const cidRow = (await received(cid)).messages.find((row) => row.id === reply.body.id);
    expect(cidRow?.cc).toBe(`${cid.email};${stranger}`);
    expect((await received(bob)).messages.some((row) => row.id === reply.body.id)).toBe(false);
  });
});

describe('privacy', () => {
  it('never shows Bcc to To/Cc recipients, in the product or in e-mail headers', async () => {
    const hidden = outside('hidden');
    const subject = `Board ${randomUUID()}`;
    const id = await send(ann, { to: bob.email, bcc: `${cid.email}; ${hidden}`, subject });

    expect((await api().get(`/api/message/id/${id}`).set(bearer(ann)).expect(200)).body.bcc).toBe(
      `${cid.email}; ${hidden}`,
    );
    for (const reader of [bob, cid]) {
      expect((await api().get(`/api/message/id/${id}`).set(bearer(reader)).expect(200)).body.bcc).toBe('');
      expect((await received(reader)).messages.find((row) => row.id === id)?.bcc).toBe('');
    }
    const mails = await Promise.all(
      [bob.email, cid.email, hidden].map((address) => inbox.delivered(address, subject)),
    );
    for (const mail of mails) {
      const headers = JSON.stringify(mail.headers).toLowerCase();
      expect(headers).not.toContain(cid.email);
      expect(headers).not.toContain(hidden);
      expect(headers).not.toContain('bcc');
    }
    const hiddenToken = linkToken(mails[2] as CaughtMail);
    expect((await api().get(`/api/message/token/${hiddenToken}`).expect(200)).body.bcc).toBe('');
  });

  it("keeps another user out of a message: by id, its replies, files, delete, and another thread's link", async () => {
    const subject = `Private ${randomUUID()}`;
    const file = { name: 'plan.txt', content: Buffer.from('secret plan').toString('base64') };
    const id = await send(ann, { to: cid.email, subject, attachments: [file] });
    const fileId = (
      (await api().get(`/api/message/id/${id}`).set(bearer(ann)).expect(200)).body as MessageDto
    ).attachments[0]?.id;
    const otherSubject = `Other ${randomUUID()}`;
    await send(ann, { to: bob.email, subject: otherSubject });
    const bobsOtherLink = linkToken(await inbox.delivered(bob.email, otherSubject));

    for (const call of [
      api().get(`/api/message/id/${id}`).set(bearer(bob)),
      api().get(`/api/message/reply-of/${id}`).set(bearer(bob)),
      api().get(`/api/message/attachment/${fileId}`).set(bearer(bob)),
      api().delete(`/api/message/${id}`).set(bearer(bob)),
      api().get(`/api/message/id/${id}`),
      api().get(`/api/message/attachment/${fileId}`),
      api().get(`/api/message/id/${id}`).set(MESSAGE_TOKEN_HEADER, bobsOtherLink),
      api().get(`/api/message/attachment/${fileId}`).set(MESSAGE_TOKEN_HEADER, bobsOtherLink),
      api()
        .post('/api/message/reply')
        .set(bearer(bob))
        .send({ replyOf: id, to: ann.email, subject: 'x', body: 'x' }),
    ]) {
      expect((await call).status).toBe(404);
    }
    expect((await received(bob)).messages.map((row) => row.id)).not.toContain(id);
    expect((await api().delete(`/api/message/${id}`).set(bearer(bob))).body.message).toBe(
      MESSAGES['message.delete.error'],
    );
    const unknown = await api()
      .get(`/api/message/token/${'x'.repeat(43)}`)
      .expect(404);
    expect(unknown.body.message).toBe(MESSAGES['error.invalid.token.parameter']);
  });

  it('refuses an expired link', async () => {
    const subject = `Old ${randomUUID()}`;
    const id = await send(ann, { to: bob.email, subject });
    const token = linkToken(await inbox.delivered(bob.email, subject));
    await db.messageRecipient.updateMany({
      where: { messageId: id },
      data: { tokenExpiresAt: new Date(Date.now() - 1000) },
    });
    await api().get(`/api/message/token/${token}`).expect(404);
    await api().get(`/api/message/id/${id}`).set(MESSAGE_TOKEN_HEADER, token).expect(404);
  });
});

describe('attached files', () => {
  it('round-trips a 10 MB binary file byte for byte, under its own name', async () => {
    const bytes = randomBytes(10 * 1024 * 1024);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108020000009077', 'hex');
    const name = 'Q3 "final"\r\n report.bin';
    const id = await send(bob, {
      to: ann.email,
      attachments: [
        { name, content: bytes.toString('base64') },
        { name: 'picture.txt', content: png.toString('base64') },
      ],
    });
    const message = (await api().get(`/api/message/id/${id}`).set(bearer(ann)).expect(200))
      .body as MessageDto;
    expect(message.attachments.map(({ name: fileName, size }) => [fileName, size])).toEqual([
      ['Q3 "final" report.bin', bytes.length],
      ['picture.txt', png.length],
    ]);
    // The type comes from the bytes, not the name.
    expect(message.attachments[1]?.mimeType).toBe('image/png');

    const [big] = message.attachments;
    const download = await api()
      .get(`/api/message/attachment/${big?.id}`)
      .set(bearer(ann))
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const downloaded = download.body as Buffer;
    expect(createHash('sha256').update(downloaded).digest('hex')).toBe(
      createHash('sha256').update(bytes).digest('hex'),
    );
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Q3 _final_ report.bin"; filename*=UTF-8''Q3%20%22final%22%20report.bin`,
    );
    // The spec's shape: name and base64 content.
    const json = await api()
      .get(`/api/message/attachment/${message.attachments[1]?.id}`)
      .set(bearer(ann))
      .set('Accept', 'application/json')
      .expect(200);
    expect(json.body).toEqual({ name: 'picture.txt', content: png.toString('base64') });
  });

  it('refuses a message over the body limit with 413 and a text, and content that is not base64', async () => {
    const before = await db.message.count();
    const tooLarge = await postDeclaringLength('/api/message/add', ann, 26 * 1024 * 1024);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.message).toBe(
      'The message is too large: the message and its attached files must stay under 25 MB.',
    );
    const notBase64 = await api()
      .post('/api/message/add')
      .set(bearer(ann))
      .send({
        to: bob.email,
        subject: 's',
        body: 'b',
        attachments: [{ name: 'a.txt', content: 'not base64!' }],
      });
    expect(notBase64.status).toBe(400);
    expect(notBase64.body.message).toBe(
      'The attached file a.txt could not be read (its content is not base64)',
    );
    expect(await db.message.count()).toBe(before);
  });
});

describe('deleting', () => {
  it("removes a message from the caller's own list only", async () => {
    const id = await send(ann, { to: bob.email });
    const deleted = await api().delete(`/api/message/${id}`).set(bearer(ann)).expect(200);
    expect(deleted.body.message).toBe(MESSAGES['message.deleted']);
    expect((await sent(ann)).messages.map((row) => row.id)).not.toContain(id);
    expect((await received(bob)).messages.map((row) => row.id)).toContain(id);
    await api().delete(`/api/message/${id}`).set(bearer(bob)).expect(200);
    expect((await received(bob)).messages.map((row) => row.id)).not.toContain(id);
    // Deleted twice: nothing left on that side.
    await api().delete(`/api/message/${id}`).set(bearer(bob)).expect(404);
  });
});

describe('a mail server that is away', () => {
  it('keeps the message and delivers its e-mail when the server is back', async () => {
    const mail = new Queue(QUEUES.mail, { connection, prefix: queuePrefix(stack.redisKeyPrefix) });
    try {
      await proxy.close();
      const stranger = outside('late');
      const subject = `While down ${randomUUID()}`;
      const id = await send(ann, { to: stranger, subject });
      const recipient = await db.messageRecipient.findFirstOrThrow({ where: { messageId: id } });
      const job = await waitFor(
        async () => {
          const found = await mail.getJob(`message-mail-${recipient.id}`);
          return found && found.attemptsMade >= 1 ? found : undefined;
        },
        'a failed delivery try',
        30_000,
      );
      expect(job.failedReason).toBeTruthy();
      expect(
        (await db.messageRecipient.findUniqueOrThrow({ where: { id: recipient.id } })).mailedAt,
      ).toBeNull();

      await proxy.open();
      // The next try would come after its backoff; the test does not wait for it.
      await job.promote();
      const delivered = await inbox.delivered(stranger, subject, 30_000);
      const token = linkToken(delivered);
      // The link of the try that went through is the one that works.
      await api().get(`/api/message/token/${token}`).expect(200);
    } finally {
      await proxy.open().catch(() => undefined);
      await mail.close();
    }
  });
});
