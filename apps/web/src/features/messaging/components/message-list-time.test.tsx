import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { MessageListItem } from '@pagewright/shared';
import '../../../lib/i18n';
import { clearSession } from '../../../lib/session';
import { jsonResponse as json, signInAsAnn } from '../../../test-support/session';
import { MessagingPanel } from './messaging-panel';
import { urlOf } from '../../../test-support/fetch';

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const received: MessageListItem = {
  id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
  from: 'bob@example.com',
  to: 'ann@example.com',
  cc: '',
  bcc: '',
  subject: 'Hello',
  datetime: '2026-01-05T09:04:03.000Z',
  replyOf: null,
  attachmentCount: 0,
  isRead: true,
};

beforeEach(() => {
  signInAsAnn();
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = urlOf(input);
      if (url.startsWith('/api/message/received'))
        return Promise.resolve(json({ messages: [received], nextCursor: null }));
      return Promise.reject(new Error(`unexpected call ${url}`));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('the message list’s times', () => {
  it('name the browser’s zone, in the format every dashboard card uses', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <MessagingPanel refreshIntervalMs={60_000} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const time = await screen.findByText(/01\/05\/26|\d\d\/\d\d\/\d\d, /u);
    expect(time.getAttribute('datetime')).toBe(received.datetime);
    expect(time.textContent).toMatch(/^\d\d\/\d\d\/\d\d, \d\d:\d\d:\d\d\s?[AP]M \(.+\)$/u);
    expect(time.textContent?.endsWith(` (${BROWSER_ZONE})`)).toBe(true);
  });
});
