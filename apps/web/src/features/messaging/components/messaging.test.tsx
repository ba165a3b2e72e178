import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { MESSAGES, type MessageDto, type MessageListItem } from '@pagewright/shared';
import { Toaster } from '../../../components/toaster';
import '../../../lib/i18n';
import { PATHS } from '../../../lib/paths';
import { clearSession } from '../../../lib/session';
import { signInAsAnn } from '../../../test-support/session';
import { MessageViewerPage } from './message-viewer-page';
import { MessagingPanel } from './messaging-panel';
import { NewMessagePage } from './new-message-page';
import { advance, installFakeClock } from '../../../test-support/clock';
import { closeToasts } from '../../../test-support/dom';
import { sentJson, urlOf } from '../../../test-support/fetch';

const FIRST = '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b';
const REPLY_1 = '2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c';
const REPLY_2 = '3a4b5c6d-7e8f-4a9b-8c1d-2e3f4a5b6c7d';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const message = (id: string, subject: string, extra: Partial<MessageDto> = {}): MessageDto => ({
  id,
  from: 'ann@example.com',
  to: 'bob@example.com;cid@example.com',
  cc: '',
  bcc: '',
  subject,
  datetime: '2026-01-05T09:04:03.000Z',
  body: `Body of ${subject}`,
  attachments: [],
  replyOf: null,
  emailToken: null,
  readerEmail: 'ann@example.com',
  ...extra,
});

let fetchMock: Mock<typeof fetch>;

const calls = (path: string) =>
  fetchMock.mock.calls.filter(([url]) => urlOf(url) === path).map(([, init]) => init as RequestInit);

/** Where the app navigated with which state (Reply All's prefill). */
function Landing() {
  const location = useLocation();
  return <pre data-testid="landing">{JSON.stringify(location.state)}</pre>;
}

function renderAt(entry: { pathname: string; state?: unknown }, element: React.ReactNode = null) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/dashboard', entry]} initialIndex={1}>
        <Routes>
          <Route path={PATHS.messageById} element={<MessageViewerPage />} />
          <Route path={PATHS.messageByToken} element={<MessageViewerPage />} />
          <Route path={PATHS.messagingNew} element={element ?? <NewMessagePage />} />
          <Route path={PATHS.dashboard} element={<MessagingPanel refreshIntervalMs={60_000} />} />
          <Route path={PATHS.login} element={<p>Login page</p>} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup({ delay: null });
}

beforeEach(() => {
  clearSession();
  fetchMock = vi.fn((input: RequestInfo | URL) =>
    Promise.reject(new Error(`unexpected call ${urlOf(input)}`)),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  closeToasts();
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  clearSession();
});

describe('Write a new message', () => {
  beforeEach(() => signInAsAnn());

  it("checks on Send with the spec's texts and sends nothing", async () => {
    const user = renderAt({ pathname: PATHS.messagingNew });
    expect(await screen.findByRole('heading', { name: 'Write a new message' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText(MESSAGES['message.to.required'])).toBeTruthy();
    expect(screen.getByText(MESSAGES['message.subject.required'])).toBeTruthy();
    expect(screen.getByText(MESSAGES['message.body.required'])).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'To' }), 'bob@example.com; nobody');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Field TO has an address that is not valid: nobody')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is prefilled by Reply All and sends the reply with its files, from the link', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(json({ id: REPLY_2, message: MESSAGES['message.sent'] })),
    );
    const user = renderAt({
      pathname: PATHS.messagingNew,
      state: {
        replyOf: FIRST,
        from: 'link-token',
        subject: 'Re: Figures',
        to: 'ann@example.com;bob@example.com',
      },
    });
    const to = screen.getByRole<HTMLInputElement>('textbox', { name: 'To' });
    await waitFor(() => expect(to.value).toBe('ann@example.com;bob@example.com'));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Subject' }).value).toBe('Re: Figures');
    await user.upload(
      screen.getByTestId('attach-files'),
      new File(['hello'], 'hello.txt', { type: 'text/plain' }),
    );
    expect(screen.getByText('hello.txt')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Agreed.');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls('/api/message/reply')).toHaveLength(1));
    expect(sentJson(calls('/api/message/reply')[0])).toEqual({
      to: 'ann@example.com;bob@example.com',
      cc: '',
      bcc: '',
      subject: 'Re: Figures',
      body: 'Agreed.',
      replyOf: FIRST,
      from: 'link-token',
      attachments: [{ name: 'hello.txt', content: 'aGVsbG8=' }],
    });
    expect(await screen.findByText(MESSAGES['message.sent'])).toBeTruthy();
    expect(await screen.findByTestId('panel-messaging')).toBeTruthy();
  });

  it('stays in the SPA after Send: back one page by the router, the toast stays, the list reads again (issue 23)', async () => {
    installFakeClock();
    const sentRow: MessageListItem = {
      id: REPLY_2,
      from: 'ann@example.com',
      to: 'bob@example.com',
      cc: '',
      bcc: '',
      subject: 'Plans',
      datetime: '2026-01-05T09:04:03.000Z',
      replyOf: null,
      attachmentCount: 0,
      isRead: true,
    };
    fetchMock.mockImplementation((input: RequestInfo | URL) => {
      const url = urlOf(input);
      if (url === '/api/message/add')
        return Promise.resolve(json({ id: REPLY_2, message: MESSAGES['message.sent'] }));
      if (url === '/api/message/received' || url === '/api/message/')
        return Promise.resolve(json({ messages: [sentRow], nextCursor: null }));
      return Promise.reject(new Error(`unexpected call ${url}`));
    });
    const user = renderAt({ pathname: PATHS.messagingNew });
    await user.type(screen.getByRole('textbox', { name: 'To' }), 'bob@example.com');
    await user.type(screen.getByRole('textbox', { name: 'Subject' }), 'Plans');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'See you.');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await advance(0);
    expect(calls('/api/message/add')).toHaveLength(1);
    // Well past the spec's 100 ms reload: still the same document, on the dashboard the router
    // went back to, with the toast and the list read after the send.
    await advance(1000);
    expect(screen.getByTestId('panel-messaging')).toBeTruthy();
    expect(screen.getByText(MESSAGES['message.sent'])).toBeTruthy();
    expect(screen.getByText('Plans')).toBeTruthy();
    expect(calls('/api/message/received').length).toBeGreaterThan(0);
  });

  it('removes a chosen file before sending', async () => {
    const user = renderAt({ pathname: PATHS.messagingNew });
    await user.upload(screen.getByTestId('attach-files'), [
      new File(['a'], 'a.txt'),
      new File(['b'], 'b.txt'),
    ]);
    await user.click(screen.getByTitle('Remove a.txt'));
    expect(screen.queryByText('a.txt')).toBeNull();
    expect(screen.getByText('b.txt')).toBeTruthy();
  });

  it('sends someone without a session and without a link to the login page', () => {
    clearSession();
    renderAt({ pathname: PATHS.messagingNew });
    expect(screen.getByText('Login page')).toBeTruthy();
  });
});

describe('the message viewer', () => {
  const first = message(FIRST, 'Figures');
  const older = message(REPLY_1, 'Re: Figures', {
    from: 'bob@example.com',
    cc: 'dee@example.com',
    replyOf: FIRST,
    datetime: '2026-01-06T09:00:00.000Z',
  });
  const newer = message(REPLY_2, 'Re: Figures (2)', {
    from: 'cid@example.com',
    replyOf: FIRST,
    datetime: '2026-01-07T09:00:00.000Z',
  });

  it('opens a link without a session: replies first, the first message last, no way back to the dashboard', async () => {
    fetchMock.mockImplementation((input: RequestInfo | URL, init?: RequestInit) => {
      const url = urlOf(input);
      const headers = (init?.headers ?? {}) as Record<string, string>;
      if (url === '/api/message/token/tok')
        return Promise.resolve(json({ ...older, emailToken: 'tok', readerEmail: 'cid@example.com' }));
      if (url === `/api/message/id/${FIRST}` && headers['x-message-token'] === 'tok')
        return Promise.resolve(json(first));
      if (url === `/api/message/reply-of/${FIRST}` && headers['x-message-token'] === 'tok')
        return Promise.resolve(json([newer, { ...older, emailToken: 'tok' }]));
      return Promise.reject(new Error(`unexpected call ${url}`));
    });
    const user = renderAt({ pathname: '/message/token/tok' }, <Landing />);
    const shown = await screen.findAllByTestId('message');
    expect(shown.map((element) => element.getAttribute('aria-label'))).toEqual([
      'Re: Figures (2)',
      'Re: Figures',
      'Figures',
    ]);
    expect(screen.queryByRole('button', { name: 'Return to dashboard' })).toBeNull();

    // Reply All answers the message the link was sent with: its sender plus its recipients, the
    // Cc kept as Cc, without the replier (the link's address, issue 23).
    await user.click(screen.getByRole('button', { name: 'Reply All' }));
    expect(JSON.parse(screen.getByTestId('landing').textContent ?? '')).toEqual({
      replyOf: FIRST,
      from: 'tok',
      subject: 'Re: Figures',
      to: 'bob@example.com',
      cc: 'dee@example.com',
    });
  });

  it('shows the way back to the dashboard with a session, and the invalid-link text for a dead link', async () => {
    signInAsAnn();
    fetchMock.mockImplementation((input: RequestInfo | URL) => {
      const url = urlOf(input);
      if (url === `/api/message/id/${FIRST}`) return Promise.resolve(json(first));
      if (url === `/api/message/reply-of/${FIRST}`) return Promise.resolve(json([]));
      if (url === '/api/message/token/dead')
        return Promise.resolve(json({ message: 'gone', code: 'NOT_FOUND' }, 404));
      return Promise.reject(new Error(`unexpected call ${url}`));
    });
    renderAt({ pathname: `/message/id/${FIRST}` });
    expect(await screen.findByRole('button', { name: 'Return to dashboard' })).toBeTruthy();
    expect(await screen.findByText('Body of Figures')).toBeTruthy();
    cleanup();
    renderAt({ pathname: '/message/token/dead' });
    expect(await screen.findByText(MESSAGES['error.invalid.token.parameter'])).toBeTruthy();
  });
});

describe('the dashboard panel', () => {
  it('cuts long subjects, bolds unread ones and opens a message', async () => {
    signInAsAnn();
    const row = (id: string, subject: string, isRead: boolean): MessageListItem => ({
      id,
      from: 'bob@example.com',
      to: 'ann@example.com',
      cc: '',
      bcc: '',
      subject,
      datetime: '2026-01-05T09:04:03.000Z',
      replyOf: null,
      attachmentCount: 0,
      isRead,
    });
    fetchMock.mockImplementation((input: RequestInfo | URL) => {
      const url = urlOf(input);
      if (url === '/api/message/received')
        return Promise.resolve(
          json({
            messages: [
              row(FIRST, 'A subject that is far longer than thirty characters', false),
              row(REPLY_1, 'Exactly thirty characters long', true),
            ],
            nextCursor: null,
          }),
        );
      if (url === `/api/message/id/${FIRST}` || url === `/api/message/reply-of/${FIRST}`)
        return Promise.resolve(json(url.includes('reply-of') ? [] : message(FIRST, 'Long')));
      return Promise.reject(new Error(`unexpected call ${url}`));
    });
    const user = renderAt({ pathname: PATHS.dashboard });
    expect(await screen.findByText('A subject that is far longe...')).toBeTruthy();
    expect(screen.getByText('Exactly thirty characters long')).toBeTruthy();
    expect(getComputedStyle(screen.getByText('A subject that is far longe...')).fontWeight).toBe('700');
    await user.click(
      screen.getByRole('button', { name: 'Open A subject that is far longer than thirty characters' }),
    );
    expect(await screen.findByText('Body of Long')).toBeTruthy();
  });
});
