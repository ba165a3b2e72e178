import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BrowserTier } from '@pagewright/shared';
import '../../../lib/i18n';
import { BrowserHostsCard } from './browser-hosts-card';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const checkedAt = '2026-11-27T10:00:00.000Z';
const tier: BrowserTier = {
  workers: [
    {
      workerId: 'd56173e9-bbc1-47e8-a167-5617d2f19ed1',
      browsers: [
        {
          name: 'local',
          url: null,
          state: 'UP',
          reason: null,
          contexts: 2,
          busy: false,
          loadAverage: 0.5,
          cores: 2,
          renderers: null,
          checkedAt,
        },
        {
          name: 'browsers-2',
          url: 'ws://10.0.0.6:3900/playwright',
          state: 'DOWN',
          reason: 'The browser host "browsers-2" is not used: it cannot be reached.',
          contexts: 0,
          busy: true,
          loadAverage: 9.1,
          cores: 4,
          renderers: 0,
          checkedAt,
        },
      ],
    },
  ],
};

function renderCard(answer: () => Promise<Response>) {
  vi.stubGlobal('fetch', vi.fn(answer));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BrowserHostsCard />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('BrowserHostsCard', () => {
  it("shows each worker's browsers with their state, why a host is out, and its machine load", async () => {
    renderCard(() => Promise.resolve(json(tier)));
    const down = await screen.findByRole('row', { name: 'browsers-2' });
    expect(within(down).getByText('Down')).toBeTruthy();
    expect(within(down).getByText('ws://10.0.0.6:3900/playwright')).toBeTruthy();
    expect(within(down).getByText(/it cannot be reached/)).toBeTruthy();
    expect(within(down).getByText('9.1 on 4 cores · busy')).toBeTruthy();
    const local = screen.getByRole('row', { name: 'local' });
    expect(within(local).getByText("This worker's Chromium")).toBeTruthy();
    expect(within(local).getByText('Up')).toBeTruthy();
    expect(within(local).getByText('2')).toBeTruthy();
  });

  it('says so when no worker runs', async () => {
    renderCard(() => Promise.resolve(json({ workers: [] })));
    expect(await screen.findByText('No worker is running: runs wait until one starts.')).toBeTruthy();
  });
});
