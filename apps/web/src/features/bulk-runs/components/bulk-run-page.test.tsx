import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { BulkRunItemView, BulkRunView } from '@pagewright/shared';
import '../../../lib/i18n';
import { clearSession } from '../../../lib/session';
import { jsonResponse as json, signInAsAnn } from '../../../test-support/session';
import { BulkRunPage } from './bulk-run-page';
import { urlOf } from '../../../test-support/fetch';

const BULK_RUN_ID = '0b7d1f2e-6a43-4c1e-9f0a-5d2c8e3b4a11';
const RUN_ID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

const bulkRun = (changes: Partial<BulkRunView> = {}): BulkRunView => ({
  id: BULK_RUN_ID,
  extractorId: '3f0c3f4e-9a51-4d1b-8b4c-1f1d3b0f6a21',
  extractorName: 'Prices',
  source: 'CSV',
  sourceName: 'products.csv',
  status: 'RUNNING',
  total: 6,
  counts: { pending: 1, running: 1, success: 3, error: 1, stopped: 0, cancelled: 0 },
  createdAt: '2026-11-27T08:00:00.000Z',
  finishedAt: null,
  ...changes,
});

const item = (position: number, changes: Partial<BulkRunItemView> = {}): BulkRunItemView => ({
  position,
  inputs: { page: `https://shop.example/p/${position}` },
  status: 'SUCCESS',
  runId: RUN_ID,
  attempts: 1,
  errorMessage: null,
  finishedAt: '2026-11-27T08:01:00.000Z',
  ...changes,
});

const failedRow = item(3, {
  status: 'ERROR',
  errorMessage: 'No element matches CSS "#price" within 1500 ms',
});

let view: BulkRunView;
let calls: { url: string; method: string }[] = [];

beforeEach(() => {
  signInAsAnn();
  calls = [];
  view = bulkRun();
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = urlOf(input);
      const method = init?.method ?? 'GET';
      calls.push({ url, method });
      if (url === `/api/bulk-runs/${BULK_RUN_ID}`) return Promise.resolve(json(view));
      if (url.startsWith(`/api/bulk-runs/${BULK_RUN_ID}/items?`))
        return Promise.resolve(json({ items: [item(1), item(2), failedRow], nextAfter: null }));
      if (url === `/api/bulk-runs/${BULK_RUN_ID}/items/3/retry` && method === 'POST') {
        view = bulkRun({ counts: { ...view.counts, error: 0, pending: 2 } });
        return Promise.resolve(json(view));
      }
      return Promise.reject(new Error(`unexpected call ${method} ${url}`));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

function renderPage() {
  const onShowResults = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <BulkRunPage bulkRunId={BULK_RUN_ID} onShowResults={onShowResults} />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup({ delay: null }), onShowResults };
}

describe('a bulk run’s page (issue 26, item 4)', () => {
  it('shows how far it got, and retries a failed row on its own', async () => {
    const { user, onShowResults } = renderPage();
    expect(await screen.findByRole('heading', { name: 'Bulk run: Prices' })).toBeTruthy();
    expect(screen.getByText('From products.csv')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Progress' }).getAttribute('aria-valuenow')).toBe('67');
    expect(screen.getByTestId('bulk-run-progress').textContent).toBe('4 of 6 done · 3 succeeded · 1 failed');
    expect(screen.getByRole('button', { name: 'Cancel bulk run' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry failed rows' })).toBeTruthy();

    const table = await screen.findByRole('table', { name: 'Rows' });
    const failed = within(table).getByTestId('bulk-run-item-3');
    expect(within(failed).getByText('Failed')).toBeTruthy();
    expect(within(failed).getByText(failedRow.errorMessage!)).toBeTruthy();
    // Only the failed row offers Retry.
    expect(within(table).getAllByRole('button', { name: /^Retry row/ })).toHaveLength(1);

    await user.click(within(failed).getByRole('button', { name: 'Retry row 3' }));
    expect(calls).toContainEqual({ url: `/api/bulk-runs/${BULK_RUN_ID}/items/3/retry`, method: 'POST' });
    expect(await screen.findByText('3 of 6 done · 3 succeeded · 0 failed')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry failed rows' })).toBeNull();

    await user.click(within(table).getByRole('button', { name: 'Results of row 1' }));
    expect(onShowResults).toHaveBeenCalledWith({ runId: RUN_ID, name: 'Prices, row 1' });
  });

  it('offers neither Cancel nor Retry once every row succeeded', async () => {
    view = bulkRun({
      status: 'FINISHED',
      counts: { pending: 0, running: 0, success: 6, error: 0, stopped: 0, cancelled: 0 },
      finishedAt: '2026-11-27T08:05:00.000Z',
    });
    renderPage();
    expect(await screen.findByText('6 of 6 done · 6 succeeded · 0 failed')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Progress' }).getAttribute('aria-valuenow')).toBe('100');
    expect(screen.getByTestId('bulk-run-status').textContent).toBe('Finished');
    expect(screen.queryByRole('button', { name: 'Cancel bulk run' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry failed rows' })).toBeNull();
  });
});
