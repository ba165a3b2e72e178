import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import request from 'supertest';
import { createPrismaClient } from '@pagewright/db';
import {
  MAIL_JOBS,
  MESSAGES,
  QUEUES,
  formatMessage,
  queuePrefix,
  type SendMessageRequest,
} from '@pagewright/shared';
import { createSignedInUser, type SignedInUser } from '../support/accounts.js';
import { createInbox, type CaughtMail } from '../support/inbox.js';
import { waitFor } from '../support/ports.js';
import { startStack, type TestStack } from '../support/stack.js';
import { resultWithin } from '../support/wait.js';

/**
 * Messaging limits (issue 24, items 1, 7 and 9) on a stack of its own with small limits: a link is
 * no open relay (only the thread's addresses, replies and recipients a day), recipients per message
 * and per account a day, attached files within quotas, large sends gated before their body is
 * read, and e-mails through an outbox (a lost job is queued again, a sent e-mail never twice).
 */

const LIMITS = {
  MESSAGE_RECIPIENTS_MAX: 5,
  MESSAGE_ACCOUNT_SENDS_PER_DAY: 6,
  MESSAGE_ACCOUNT_RECIPIENTS_PER_DAY: 12,
  MESSAGE_LINK_SENDS_PER_DAY: 3,
  MESSAGE_LINK_RECIPIENTS_PER_DAY: 4,
  MESSAGE_LINK_ATTACHMENTS_MAX_MB: 1,
  MESSAGE_ATTACHMENTS_QUOTA_MB: 2,
  MESSAGE_LARGE_BODY_MB: 1,
  MESSAGE_LARGE_SENDS_MAX_RUNNING: 2,
  MESSAGE_LARGE_SENDS_MAX_PER_USER: 1,
  MESSAGE_MAIL_REQUEUE_AFTER_SECONDS: 3,
  MESSAGE_MAIL_REQUEUE_EVERY_SECONDS: 2,
} as const;

type Account = SignedInUser;

let stack: TestStack;
let db: ReturnType<typeof createPrismaClient>;
let connection: Redis;
let inbox: ReturnType<typeof createInbox>;

const api = () => request(stack.apiUrl);
const bearer = (account: Account) => ({ Authorization: `Bearer ${account.token}` });
const outside = (label: string) => `${label}-${randomUUID().slice(0, 8)}@outside.example.com`;
const signUp = (label: string): Promise<Account> =>
  createSignedInUser(db, stack.apiUrl, stack.mailUrl, label);
const file = (name: string, bytes: number) => ({ name, content: randomBytes(bytes).toString('base64') });

async function send(account: Account, message: Partial<SendMessageRequest>): Promise<string> {
  const response = await api()
    .post('/api/message/add')
    .set(bearer(account))
    .send({ subject: `s-${randomUUID()}`, body: 'Hello there', ...message });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.id as string;
}

function linkToken(mail: CaughtMail): string {
  const match = /\/message\/token\/([\w-]+)/u.exec(mail.text);
  if (!match?.[1]) throw new Error(`no message link in: ${mail.text}`);
  return match[1];
}

/** A thread from a fresh owner to an outside address, and that address's link. */
async function threadWithLink(to: string[] = []) {
  const owner = await signUp('owner');
  const stranger = outside('olga');
  const subject = `Thread ${randomUUID()}`;
  const id = await send(owner, { to: [stranger, ...to].join('; '), subject });
  const token = linkToken(await inbox.delivered(stranger, subject));
  return { owner, stranger, subject, id, token };
}

const linkReply = (id: string, token: string, message: Partial<SendMessageRequest>) =>
  api()
    .post('/api/message/reply')
    .send({ replyOf: id, from: token, subject: `Re ${randomUUID()}`, body: 'Reply.', ...message });

interface SendAnswer {
  status: number;
  body: { message?: string; code?: string };
}

/**
 * A send whose body declares `length` bytes and of which only the start is written: the API must
 * answer it (or not) before its body is read. `answered` settles with the status and body;
 * `isAnswered` says whether it has yet.
 */
function openSend(path: string, token: string, length: number) {
  const sent = http.request(new URL(path, stack.apiUrl), {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': String(length),
    },
  });
  let isAnswered = false;
  const answered = new Promise<SendAnswer>((resolve) => {
    sent.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        isAnswered = true;
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
  });
  sent.on('error', () => undefined);
  sent.write(
    '{"to":"someone@outside.example.com","subject":"big","body":"big","attachments":[{"name":"a","content":"',
  );
  return { answered, isAnswered: () => isAnswered, abort: () => sent.destroy() };
}
type OpenSend = ReturnType<typeof openSend>;

/**
 * Two large sends at once, each waiting for a slot: whichever reaches the API's gate first takes
 * it and is read on (unanswered: its body is not all there); the other is refused at once. The
 * first answer within 5 s (null if none came), which send it answered, and the other one.
 */
function firstAnswer([one, other]: [OpenSend, OpenSend]) {
  return resultWithin(
    Promise.race([
      one.answered.then((answer) => ({ answer, refused: one, reading: other })),
      other.answered.then((answer) => ({ answer, refused: other, reading: one })),
    ]),
    5_000,
    null,
  );
}

beforeAll(async () => {
  stack = await startStack({
    useBuild: process.env.PW_TEST_USE_BUILD === '1',
    env: {
      ...Object.fromEntries(Object.entries(LIMITS).map(([key, value]) => [key, String(value)])),
      MESSAGE_SEND_RATE_LIMIT_MAX: '10000',
    },
  });
  db = createPrismaClient(stack.databaseUrl);
  connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  inbox = createInbox(stack.mailUrl);
}, 180_000);

afterAll(async () => {
  await db?.$disconnect();
  connection?.disconnect();
  await stack?.stop();
});

describe('no open relay (issue 24, item 1)', () => {
  it("lets a link holder reply only to the thread's addresses", async () => {
    const bob = await signUp('bob');
    const { owner, stranger, id, token } = await threadWithLink([bob.email]);
    const strangers = [outside('x1'), outside('x2'), outside('x3')];
    const subject = `Relay ${randomUUID()}`;

    const toOutside = await linkReply(id, token, { to: [owner.email, ...strangers].join('; '), subject });
    expect(toOutside.status).toBe(403);
    expect(toOutside.body).toMatchObject({
      code: 'FORBIDDEN',
      field: 'to',
      message: formatMessage('message.reply.outside.thread', { address: strangers[0] ?? '' }),
    });
    const bccOutside = await linkReply(id, token, { to: owner.email, bcc: strangers[1], subject });
    expect(bccOutside.status).toBe(403);
    expect(bccOutside.body.field).toBe('bcc');

    // The conversation's own people (the sender, the other recipients, the writer) still get it.
    await linkReply(id, token, { to: `${owner.email}; ${bob.email}; ${stranger}`, subject }).expect(200);
    await Promise.all([owner.email, bob.email, stranger].map((address) => inbox.delivered(address, subject)));
    expect(await inbox.deliveredAddresses(subject)).toEqual([owner.email, bob.email, stranger].sort());
  });

  it('caps the recipients of one message', async () => {
    const ann = await signUp('ann');
    const addresses = Array.from({ length: LIMITS.MESSAGE_RECIPIENTS_MAX + 1 }, (_, index) =>
      outside(`r${index}`),
    );
    const before = await db.message.count();
    const refused = await api()
      .post('/api/message/add')
      .set(bearer(ann))
      .send({
        to: addresses.slice(0, 3).join(';'),
        bcc: addresses.slice(3).join(';'),
        subject: 's',
        body: 'b',
      });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'to',
      message: formatMessage('message.recipients.too.many', { max: LIMITS.MESSAGE_RECIPIENTS_MAX }),
    });
    expect(await db.message.count()).toBe(before);
    await send(ann, { to: addresses.slice(1).join(';') });
  });

  it('limits the messages and recipients of an account a day', async () => {
    const dan = await signUp('dan');
    const five = () => Array.from({ length: 5 }, (_, index) => outside(`d${index}`)).join(';');
    await send(dan, { to: five() });
    await send(dan, { to: five() });
    // 10 of 12 recipients used: five more are refused, two more are not.
    const tooMany = await api()
      .post('/api/message/add')
      .set(bearer(dan))
      .send({ to: five(), subject: 's', body: 'b' });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body).toEqual({
      code: 'RATE_LIMITED',
      message: formatMessage('message.account.recipients.per.day', {
        max: LIMITS.MESSAGE_ACCOUNT_RECIPIENTS_PER_DAY,
      }),
    });
    await send(dan, { to: `${outside('a')};${outside('b')}` });

    const eve = await signUp('eve');
    for (let index = 0; index < LIMITS.MESSAGE_ACCOUNT_SENDS_PER_DAY; index += 1) {
      await send(eve, { to: outside('e') });
    }
    const tooOften = await api()
      .post('/api/message/add')
      .set(bearer(eve))
      .send({ to: outside('e'), subject: 's', body: 'b' });
    expect(tooOften.status).toBe(429);
    expect(tooOften.body.message).toBe(
      formatMessage('message.account.sends.per.day', { max: LIMITS.MESSAGE_ACCOUNT_SENDS_PER_DAY }),
    );
  });

  it('limits the replies and recipients of one link a day', async () => {
    const { owner, id, token } = await threadWithLink();
    for (let index = 0; index < LIMITS.MESSAGE_LINK_SENDS_PER_DAY; index += 1) {
      await linkReply(id, token, { to: owner.email }).expect(200);
    }
    const tooOften = await linkReply(id, token, { to: owner.email });
    expect(tooOften.status).toBe(429);
    expect(tooOften.body.message).toBe(
      formatMessage('message.link.sends.per.day', { max: LIMITS.MESSAGE_LINK_SENDS_PER_DAY }),
    );

    const [bob, cid] = await Promise.all([signUp('bob'), signUp('cid')]);
    const other = await threadWithLink([bob.email, cid.email]);
    await linkReply(other.id, other.token, { to: `${other.owner.email};${bob.email};${cid.email}` }).expect(
      200,
    );
    const tooMany = await linkReply(other.id, other.token, { to: `${other.owner.email};${bob.email}` });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.message).toBe(
      formatMessage('message.link.recipients.per.day', { max: LIMITS.MESSAGE_LINK_RECIPIENTS_PER_DAY }),
    );
  });

  it("keeps a link's replies within a small share of the thread owner's storage", async () => {
    const { owner, id, token } = await threadWithLink();
    await linkReply(id, token, { to: owner.email, attachments: [file('one.bin', 600 * 1024)] }).expect(200);
    const refused = await linkReply(id, token, {
      to: owner.email,
      attachments: [file('two.bin', 600 * 1024)],
    });
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: formatMessage('message.link.attachments.quota', {
        mb: LIMITS.MESSAGE_LINK_ATTACHMENTS_MAX_MB,
      }),
    });
    expect(await db.storedFile.count({ where: { userId: owner.id } })).toBe(1);
  });
});

describe('large sends (issue 24, item 7)', () => {
  it('refuses a large send before reading its body when its user or the process is busy', async () => {
    const [ann, bob, cid] = await Promise.all([signUp('ann'), signUp('bob'), signUp('cid')]);
    const size = 3 * 1024 * 1024;
    // Two of ann's at once: one holds her only slot, the other is refused, its body unread.
    const anns: [OpenSend, OpenSend] = [
      openSend('/api/message/add', ann.token, size),
      openSend('/api/message/add', ann.token, size),
    ];
    const byUser = await firstAnswer(anns);
    expect(byUser?.answer).toEqual({
      status: 429,
      body: { code: 'RATE_LIMITED', message: MESSAGES['message.large.busy.user'] },
    });
    expect(byUser?.reading.isAnswered()).toBe(false);

    // With ann's, one of bob's and cid's fills the process's two slots: the other is refused.
    const others: [OpenSend, OpenSend] = [
      openSend('/api/message/add', bob.token, size),
      openSend('/api/message/add', cid.token, size),
    ];
    const byProcess = await firstAnswer(others);
    expect(byProcess?.answer).toEqual({
      status: 429,
      body: { code: 'RATE_LIMITED', message: MESSAGES['message.large.busy'] },
    });
    // Both slots' sends are still being read, unanswered.
    expect(byUser?.reading.isAnswered()).toBe(false);
    expect(byProcess?.reading.isAnswered()).toBe(false);

    // Slots come back when the sends end (here: their clients went away): a large send is taken
    // again once the API has seen them go (until then it is refused as busy).
    for (const open of [...anns, ...others]) open.abort();
    const busy: string[] = [MESSAGES['message.large.busy'], MESSAGES['message.large.busy.user']];
    const taken = await waitFor(
      async () => {
        const answer = await api()
          .post('/api/message/add')
          .set(bearer(ann))
          .send({ to: bob.email, subject: 's', body: 'b', attachments: [file('big.bin', 1024 * 1024)] });
        return answer.status === 429 && busy.includes(answer.body.message as string) ? undefined : answer;
      },
      'the large-send slots to come back',
      10_000,
    );
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
  });

  it("keeps an account's attached files within its quota", async () => {
    const dora = await signUp('dora');
    await send(dora, { to: outside('f'), attachments: [file('a.bin', 700 * 1024)] });
    await send(dora, { to: outside('f'), attachments: [file('b.bin', 700 * 1024)] });
    const refused = await api()
      .post('/api/message/add')
      .set(bearer(dora))
      .send({ to: outside('f'), subject: 's', body: 'b', attachments: [file('c.bin', 700 * 1024)] });
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: formatMessage('message.attachments.quota', { mb: LIMITS.MESSAGE_ATTACHMENTS_QUOTA_MB }),
    });
    expect(await db.storedFile.count({ where: { userId: dora.id } })).toBe(2);
  });
});

describe('e-mails through an outbox (issue 24, item 9)', () => {
  it('sends an e-mail whose job was lost, and never twice', async () => {
    const mail = new Queue(QUEUES.mail, { connection, prefix: queuePrefix(stack.redisKeyPrefix) });
    try {
      const ann = await signUp('ann');
      await mail.pause();
      const stranger = outside('lost');
      const subject = `Lost job ${randomUUID()}`;
      const id = await send(ann, { to: stranger, subject });
      const recipient = await db.messageRecipient.findFirstOrThrow({ where: { messageId: id } });
      // Redis loses the job before any worker took it.
      const job = await waitFor(async () => mail.getJob(`message-mail-${recipient.id}`), 'the mail job');
      await job.remove();
      await mail.resume();

      await inbox.delivered(stranger, subject, 30_000);
      const sent = await db.messageRecipient.findUniqueOrThrow({ where: { id: recipient.id } });
      expect(sent.mailState).toBe('SENT');
      expect(sent.mailedAt).not.toBeNull();

      // A second job for the same e-mail (a re-queue racing the first) sends nothing.
      const duplicate = await mail.add(
        MAIL_JOBS.sendMessage.name,
        { recipientId: recipient.id },
        { jobId: `dup-${recipient.id}` },
      );
      const duplicateDone = await waitFor(async () => {
        const job = await mail.getJob(duplicate.id ?? '');
        return (await job?.getState()) === 'completed' ? job?.finishedOn : undefined;
      }, 'the duplicate job');
      // Nor does the outbox's re-queue (every MESSAGE_MAIL_REQUEUE_EVERY_SECONDS): two of its
      // sweeps start after the duplicate ended, and queue nothing again.
      const sweeps = await waitFor(
        async () => {
          const after = (await mail.getJobs(['completed'])).filter(
            (job) =>
              job.name === MAIL_JOBS.requeuePendingMessageMails.name &&
              (job.processedOn ?? 0) > duplicateDone,
          );
          return after.length >= 2 ? after : undefined;
        },
        'two re-queue sweeps after the duplicate',
        10 * LIMITS.MESSAGE_MAIL_REQUEUE_EVERY_SECONDS * 1000,
      );
      expect(sweeps.map((job) => job.returnvalue as unknown)).toEqual(sweeps.map(() => ({ requeued: 0 })));
      expect(await inbox.deliveredAddresses(subject)).toEqual([stranger]);
    } finally {
      await mail.resume().catch(() => undefined);
      await mail.close();
    }
  });
});
