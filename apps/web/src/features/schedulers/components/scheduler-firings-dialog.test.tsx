import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { formatMessage, type SchedulerDto, type SchedulerFiringDto } from '@pagewright/shared';
import '../../../lib/i18n';
import { clearSession } from '../../../lib/session';
import { jsonResponse as json, signInAsAnn } from '../../../test-support/session';
import { SchedulerFiringsDialog } from './scheduler-firings-dialog';
import { urlOf } from '../../../test-support/fetch';

const SCHEDULER_ID = '3a4b5c6d-7e8f-4a9b-8c1d-2e3f4a5b6c7d';
const EXTRACTOR_ID = '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f';

const scheduler: SchedulerDto = {
  id: SCHEDULER_ID,
  name: 'Nightly',
  description: 'Every night',
  scheduleType: 'MINUTE_INTERVAL',
  minuteInterval: 1440,
  time: null,
  daysOfWeek: [],
  dayOfMonth: null,
  timeZone: 'UTC',
  extractorIds: [EXTRACTOR_ID],
  extractors: [{ id: EXTRACTOR_ID, name: 'Prices', extractorType: 'EXTRACTOR' }],
  nextRunAt: '2025-01-17T00:00:00.000Z',
  lastRun: null,
  updatedAt: '2025-01-01T00:00:00.000Z',
};

const reason = formatMessage('scheduler.missed', {
  count: 3,
  first: '2025-01-14T00:00:00.000Z',
  last: '2025-01-16T00:00:00.000Z',
  restoredAt: '2025-01-16T10:04:05.000Z',
});
const missed: SchedulerFiringDto = {
  scheduledFor: '2025-01-16T00:00:00.000Z',
  extractorId: EXTRACTOR_ID,
  extractorName: 'Prices',
  outcome: 'MISSED',
  skipReason: reason,
  runId: null,
  runStatus: null,
  runErrorMessage: null,
};

beforeEach(() => {
  signInAsAnn();
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = urlOf(input);
      if (url === `/api/extractor/scheduler/${SCHEDULER_ID}/firings`) return Promise.resolve(json([missed]));
      return Promise.reject(new Error(`unexpected call ${url}`));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

describe('a scheduler’s firings (issue 24)', () => {
  it('shows a firing Redis lost as missed, with its reason, not as started', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SchedulerFiringsDialog scheduler={scheduler} onClose={() => undefined} />
      </QueryClientProvider>,
    );
    const table = await screen.findByRole('table', { name: 'Runs' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText(reason)).toBeTruthy();
    expect(within(row).getByText('Prices')).toBeTruthy();
    expect(within(row).queryByText('Started')).toBeNull();
  });
});
