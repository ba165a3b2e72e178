import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import type { SchedulerDto } from '@pagewright/shared';
import '../../../lib/i18n';
import { clearSession } from '../../../lib/session';
import { jsonResponse as json, signInAsAnn } from '../../../test-support/session';
import { SchedulerListPanel } from './scheduler-list-panel';
import { urlOf } from '../../../test-support/fetch';

const SCHEDULER_ID = '3a4b5c6d-7e8f-4a9b-8c1d-2e3f4a5b6c7d';
const RUN_ID = '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e';

const scheduler: SchedulerDto = {
  id: SCHEDULER_ID,
  name: 'Morning',
  description: 'Every morning',
  scheduleType: 'DAILY',
  minuteInterval: null,
  time: '09:30:00',
  daysOfWeek: [],
  dayOfMonth: null,
  timeZone: 'America/New_York',
  extractorIds: [],
  extractors: [],
  nextRunAt: '2025-01-16T14:30:00.000Z',
  lastRun: {
    runId: RUN_ID,
    extractorName: 'A shop price extractor with a rather long name',
    status: 'SUCCESS',
    startedAt: '2025-01-15T14:30:07.000Z',
  },
  updatedAt: '2025-01-01T00:00:00.000Z',
};

beforeEach(() => {
  signInAsAnn();
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = urlOf(input);
      if (url === '/api/extractor/scheduler/') return Promise.resolve(json([scheduler]));
      return Promise.reject(new Error(`unexpected call ${url}`));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

function renderCards() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <SchedulerListPanel refreshIntervalMs={60_000} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('times on the scheduler card', () => {
  it('shows the next and the last run in the scheduler’s zone, each with the zone’s name, in one format', async () => {
    renderCards();
    const next = await screen.findByTestId('scheduler-next-run');
    expect(next.textContent).toMatch(/^Next run: 01\/16\/25, 09:30:00\s?AM \(America\/New_York\)$/u);
    const last = screen.getByTestId('scheduler-last-run');
    const time = within(last).getByText(/01\/15\/25/u);
    expect(time.textContent).toMatch(/^01\/15\/25, 09:30:07\s?AM \(America\/New_York\)$/u);
    expect(time.getAttribute('datetime')).toBe(scheduler.lastRun?.startedAt);
  });

  it('lets the last run wrap instead of clipping it', async () => {
    renderCards();
    const last = await screen.findByTestId('scheduler-last-run');
    expect(getComputedStyle(last).flexWrap).toBe('wrap');
    expect(getComputedStyle(last).whiteSpace).toBe('normal');
  });
});
