import { describe, expect, it } from 'vitest';
import { listSubject, replyAllPrefill, sendMessageRequestSchema, splitRecipients } from './messages.js';

const opened = {
  id: 'reply-1',
  from: 'ann@example.com',
  to: 'bob@example.com; cid@example.com',
  cc: '',
  subject: 'Figures',
  replyOf: 'first-1',
  emailToken: null,
  readerEmail: 'dee@example.com',
};

describe('Reply All (data spec §2, issue 23)', () => {
  it('goes to the sender plus the recipients when the sender is not among them', () => {
    expect(replyAllPrefill(opened)).toEqual({
      replyOf: 'first-1',
      from: 'ann@example.com',
      subject: 'Re: Figures',
      to: 'ann@example.com;bob@example.com;cid@example.com',
      cc: '',
    });
  });

  it('goes to the recipients only when the sender is among them (any case)', () => {
    const prefill = replyAllPrefill({ ...opened, to: 'BOB@example.com;Ann@Example.com' });
    expect(prefill.to).toBe('BOB@example.com;Ann@Example.com');
  });

  it('keeps the Cc as Cc and leaves the replier out of both lines', () => {
    const prefill = replyAllPrefill({
      ...opened,
      to: 'bob@example.com;cid@example.com',
      cc: 'eve@example.com; BOB@example.com; fay@example.com',
      readerEmail: 'Bob@Example.com',
    });
    expect(prefill).toMatchObject({
      to: 'ann@example.com;cid@example.com',
      cc: 'eve@example.com;fay@example.com',
    });
    const fromCc = replyAllPrefill({ ...opened, cc: 'dee@example.com;cid@example.com' });
    expect(fromCc).toMatchObject({ to: 'ann@example.com;bob@example.com;cid@example.com', cc: '' });
  });

  it('answers the sender when the replier wrote only to themselves', () => {
    const prefill = replyAllPrefill({ ...opened, to: 'ann@example.com', readerEmail: 'ann@example.com' });
    expect(prefill.to).toBe('ann@example.com');
  });

  it("writes from the page's link token, answers the thread's first message, keeps one Re:", () => {
    const prefill = replyAllPrefill({
      ...opened,
      replyOf: null,
      id: 'first-1',
      subject: 're: Figures',
      emailToken: 't0k',
    });
    expect(prefill).toMatchObject({ replyOf: 'first-1', from: 't0k', subject: 're: Figures' });
  });
});

describe('lists and recipient lines', () => {
  it('cuts a subject longer than 30 characters to 27 plus an ellipsis', () => {
    expect(listSubject('x'.repeat(30))).toBe('x'.repeat(30));
    expect(listSubject('x'.repeat(31))).toBe(`${'x'.repeat(27)}...`);
  });

  it('splits on semicolons and drops empty parts', () => {
    expect(splitRecipients(' a@x.io ;; b@y.io; ')).toEqual(['a@x.io', 'b@y.io']);
    expect(splitRecipients(null)).toEqual([]);
  });
});

describe('send payload', () => {
  const valid = { to: 'a@x.io', subject: 'Hi', body: 'Hello' };
  const firstIssue = (payload: object) => {
    const result = sendMessageRequestSchema.safeParse(payload);
    return result.success
      ? null
      : { message: result.error.issues[0]?.message, path: result.error.issues[0]?.path };
  };

  it('accepts a minimal message and defaults the optional lines', () => {
    const parsed = sendMessageRequestSchema.parse(valid);
    expect(parsed).toMatchObject({ cc: '', bcc: '', attachments: [] });
  });

  it('answers the spec texts', () => {
    expect(firstIssue({ ...valid, to: ' ; ' })).toEqual({
      message: 'Field TO cannot be empty',
      path: ['to'],
    });
    expect(firstIssue({ ...valid, subject: '  ' })?.message).toBe('Field SUBJECT cannot be empty');
    expect(firstIssue({ ...valid, body: '' })?.message).toBe('Field BODY cannot be empty');
    expect(firstIssue({ ...valid, bcc: 'nobody' })).toEqual({
      message: 'Field BCC has an address that is not valid: nobody',
      path: ['bcc'],
    });
    expect(firstIssue({ ...valid, body: 'x'.repeat(1025) })?.message).toBe(
      'Field BODY must be at most 1024 characters',
    );
  });

  it('refuses content that is not base64 and more than 20 files', () => {
    expect(firstIssue({ ...valid, attachments: [{ name: 'a.txt', content: 'abc' }] })?.message).toBe(
      'The attached file a.txt could not be read (its content is not base64)',
    );
    const files = Array.from({ length: 21 }, (_, index) => ({ name: `${index}.txt`, content: 'YQ==' }));
    expect(firstIssue({ ...valid, attachments: files })?.message).toBe(
      'A message can carry at most 20 attached files',
    );
  });
});
