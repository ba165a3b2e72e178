import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useParams } from 'react-router-dom';
import { BULK_RUN_CSV_MAX_BYTES, MESSAGES, type BulkRunView, type ExtractorInput } from '@pagewright/shared';
import '../../../lib/i18n';
import { clearSession } from '../../../lib/session';
import { jsonResponse as json, signInAsAnn } from '../../../test-support/session';
import { BulkRunDialog } from './bulk-run-dialog';
import { sentJson, urlOf } from '../../../test-support/fetch';

const EXTRACTOR_ID = '3f0c3f4e-9a51-4d1b-8b4c-1f1d3b0f6a21';
const BULK_RUN_ID = '0b7d1f2e-6a43-4c1e-9f0a-5d2c8e3b4a11';
const INPUTS: ExtractorInput[] = [
  { name: 'page', type: 'URL', defaultValue: 'https://shop.example/p/1' },
  { name: 'say', type: 'TEXT', defaultValue: 'hello' },
];

const created: BulkRunView = {
  id: BULK_RUN_ID,
  extractorId: EXTRACTOR_ID,
  extractorName: 'Prices',
  source: 'CSV',
  sourceName: 'products.csv',
  status: 'RUNNING',
  total: 3,
  counts: { pending: 3, running: 0, success: 0, error: 0, stopped: 0, cancelled: 0 },
  createdAt: '2026-11-27T08:00:00.000Z',
  finishedAt: null,
};

let posted: unknown[] = [];
const createdAnswer = () => new Response(JSON.stringify(created), { status: 201 });
let createAnswer = createdAnswer;

beforeEach(() => {
  signInAsAnn();
  posted = [];
  createAnswer = createdAnswer;
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = urlOf(input);
      if (url === `/api/bulk-runs?extractorId=${EXTRACTOR_ID}`)
        return Promise.resolve(json({ bulkRuns: [] }));
      if (url === `/api/extractor/${EXTRACTOR_ID}/bulk-runs` && init?.method === 'POST') {
        posted.push(sentJson(init));
        return Promise.resolve(createAnswer());
      }
      return Promise.reject(new Error(`unexpected call ${url}`));
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  clearSession();
});

function BulkRunShown() {
  return <p>Bulk run page {useParams().bulkRunId}</p>;
}

function renderDialog() {
  const user = userEvent.setup({ delay: null });
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/dashboard']}>
        <Routes>
          <Route
            path="/dashboard"
            element={
              <BulkRunDialog
                extractor={{ id: EXTRACTOR_ID, name: 'Prices', inputs: INPUTS }}
                onClose={onClose}
              />
            }
          />
          <Route path="/bulk-runs/:bulkRunId" element={<BulkRunShown />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { user, onClose };
}

const csvFile = (text: string, name = 'products.csv') => new File([text], name, { type: 'text/csv' });
const start = () => screen.getByRole('button', { name: 'Start bulk run' });

describe('the bulk-run dialog (issue 26, item 4)', () => {
  it('shows a chosen CSV’s columns and rows, then starts it and opens the bulk run’s page', async () => {
    const { user, onClose } = renderDialog();
    expect(start()).toHaveProperty('disabled', true);
    const text =
      'page,say\nhttps://a.example/1,one\n"https://a.example/2","two, with a comma"\n\nhttps://a.example/3,\n';
    await user.upload(screen.getByLabelText('CSV file'), csvFile(text));
    expect(await screen.findByText('products.csv: 3 rows')).toBeTruthy();
    expect(screen.getByText('Columns: page, say')).toBeTruthy();
    expect(start()).toHaveProperty('disabled', false);
    await user.click(start());
    expect(await screen.findByText(`Bulk run page ${BULK_RUN_ID}`)).toBeTruthy();
    expect(posted).toEqual([{ source: 'CSV', fileName: 'products.csv', csv: text }]);
    expect(onClose).toHaveBeenCalled();
  });

  it('refuses a CSV whose header names something that is not an input, before sending it', async () => {
    const { user } = renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), csvFile('page,colour\nhttps://a.example/1,red\n'));
    expect(
      await screen.findByText(MESSAGES['bulk.run.column.unknown'].replace('{{column}}', 'colour')),
    ).toBeTruthy();
    expect(start()).toHaveProperty('disabled', true);
  });

  it('refuses a file larger than 4 MB without reading it', async () => {
    const { user } = renderDialog();
    const big = csvFile('page\n');
    Object.defineProperty(big, 'size', { value: BULK_RUN_CSV_MAX_BYTES + 1 });
    const read = vi.spyOn(big, 'text');
    await user.upload(screen.getByLabelText('CSV file'), big);
    expect(await screen.findByText('The CSV file is larger than 4 MB.')).toBeTruthy();
    expect(read).not.toHaveBeenCalled();
    expect(start()).toHaveProperty('disabled', true);
  });

  it('shows the API’s refusal, naming the row and the input, and stays open', async () => {
    const refusal = 'Row 2: The input page must be an http(s) URL.';
    createAnswer = () =>
      new Response(JSON.stringify({ message: refusal, code: 'VALIDATION_ERROR', field: 'rows.2.page' }), {
        status: 400,
      });
    const { user, onClose } = renderDialog();
    await user.upload(screen.getByLabelText('CSV file'), csvFile('page\nhttps://a.example/1\nnot a url\n'));
    await user.click(await screen.findByRole('button', { name: 'Start bulk run' }));
    expect((await screen.findByTestId('bulk-run-refusal')).textContent).toBe(refusal);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends pasted lines to the input chosen for them', async () => {
    const { user } = renderDialog();
    await user.click(screen.getByRole('tab', { name: 'Paste lines' }));
    await user.click(screen.getByRole('combobox', { name: 'Input' }));
    await user.click(screen.getByRole('option', { name: 'say' }));
    await user.type(screen.getByLabelText('Values, one per line'), 'one{enter}{enter}two');
    expect(screen.getByText('2 values: one run each')).toBeTruthy();
    await user.click(start());
    expect(await screen.findByText(`Bulk run page ${BULK_RUN_ID}`)).toBeTruthy();
    expect(posted).toEqual([{ source: 'LINES', inputName: 'say', lines: 'one\n\ntwo' }]);
  });
});
