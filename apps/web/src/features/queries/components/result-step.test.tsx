import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { QueryDatasetField, QueryResult } from '@pagewright/shared';
import '../../../lib/i18n';
import { ResultStep } from './result-step';
import { urlOf } from '../../../test-support/fetch';

const NAME_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const PRICE_ID = '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e';
const INVOICE_ID = '3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f';
const FILE_ID = '4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f8a';

const columns: QueryDatasetField[] = [
  { datasetFieldId: NAME_ID, name: 'Name', type: 'TEXT', sequence: 0 },
  { datasetFieldId: PRICE_ID, name: 'Price', type: 'NUMBER', sequence: 1 },
  { datasetFieldId: INVOICE_ID, name: 'Invoice', type: 'FILE', sequence: 2 },
];
const TOTAL = 12;

/** The server's pages of a 12-row result: row n is "Item n", price n.50, an invoice on the first row only. */
function page(pageIndex: number, size: number): QueryResult {
  const first = pageIndex * size;
  const count = Math.max(0, Math.min(size, TOTAL - first));
  return {
    columns,
    rows: Array.from({ length: count }, (_, offset) => {
      const n = first + offset + 1;
      return {
        fields: [
          { datasetFieldId: NAME_ID, name: 'Name', type: 'TEXT', value: `Item ${n}`, fileId: null },
          { datasetFieldId: PRICE_ID, name: 'Price', type: 'NUMBER', value: `${n}.50`, fileId: null },
          {
            datasetFieldId: INVOICE_ID,
            name: 'Invoice',
            type: 'FILE',
            value: n === 1 ? 'invoice-1.pdf' : null,
            fileId: n === 1 ? FILE_ID : null,
          },
        ],
      };
    }),
    totalOfRows: TOTAL,
    page: pageIndex,
    size,
  };
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

let fetchMock: Mock<typeof fetch>;
let savedAs: string[];

beforeEach(() => {
  savedAs = [];
  fetchMock = vi.fn((input: RequestInfo | URL) => {
    const url = new URL(urlOf(input), 'http://localhost');
    if (url.pathname === '/api/query/showqueryresult')
      return Promise.resolve(
        json(page(Number(url.searchParams.get('page')), Number(url.searchParams.get('size')))),
      );
    if (url.pathname === `/api/query/file/${FILE_ID}`)
      return Promise.resolve(json({ filename: 'invoice-1.pdf', fileContent: btoa('%PDF-1.4') }));
    return Promise.reject(new Error(`unexpected call ${url.pathname}`));
  });
  vi.stubGlobal('fetch', fetchMock);
  // jsdom has no object URLs and no downloads: the save flow only needs a URL and a link's click.
  URL.createObjectURL = vi.fn(() => 'blob:query-file');
  URL.revokeObjectURL = vi.fn();
  HTMLAnchorElement.prototype.click = vi.fn(function (this: HTMLAnchorElement) {
    savedAs.push(this.download);
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderResult() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ResultStep revision={1} />
    </QueryClientProvider>,
  );
  return userEvent.setup({ delay: null });
}

const requestedPages = () =>
  fetchMock.mock.calls
    .map(([input]) => urlOf(input))
    .filter((url) => url.startsWith('/api/query/showqueryresult'))
    .map((url) => url.split('?')[1]);

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const firstCells = () => bodyRows().map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('query result paging', () => {
  it('shows 5 rows of the first page by default, with the total, then pages on the server', async () => {
    const user = renderResult();
    await waitFor(() => expect(firstCells()).toEqual(['Item 1', 'Item 2', 'Item 3', 'Item 4', 'Item 5']));
    expect(screen.getByTestId('query-total').textContent).toBe('Rows: 12');
    expect(screen.getByText('1–5 of 12')).toBeTruthy();
    expect(requestedPages()).toEqual(['page=0&size=5']);

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(firstCells()).toEqual(['Item 6', 'Item 7', 'Item 8', 'Item 9', 'Item 10']));
    expect(screen.getByText('6–10 of 12')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(firstCells()).toEqual(['Item 11', 'Item 12']));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Go to next page' }).disabled).toBe(true);
    expect(requestedPages()).toEqual(['page=0&size=5', 'page=1&size=5', 'page=2&size=5']);
  });

  it('offers 5, 10 and 25 rows a page; another size starts again at the first page', async () => {
    const user = renderResult();
    await waitFor(() => expect(firstCells()).toHaveLength(5));
    await user.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(firstCells()[0]).toBe('Item 6'));

    await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['5', '10', '25']);
    await user.click(screen.getByRole('option', { name: '10' }));
    await waitFor(() => expect(firstCells()).toHaveLength(10));
    expect(firstCells()[0]).toBe('Item 1');
    expect(requestedPages().at(-1)).toBe('page=0&size=10');
  });

  it('shows a FILE field as file name and file link; the link saves the file under its name', async () => {
    const user = renderResult();
    await waitFor(() => expect(firstCells()).toHaveLength(5));
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      'Name',
      'Price',
      'Invoice (file name)',
      'Invoice (file link)',
    ]);
    const firstRow = within(bodyRows()[0]!).getAllByRole('cell');
    expect(firstRow[1]?.textContent).toBe('1.50');
    expect(firstRow[2]?.textContent).toBe('invoice-1.pdf');
    // Rows without a file have no link.
    expect(within(bodyRows()[1]!).queryByRole('button')).toBeNull();

    await user.click(within(bodyRows()[0]!).getByRole('button', { name: 'Download invoice-1.pdf' }));
    await waitFor(() => expect(savedAs).toEqual(['invoice-1.pdf']));
    expect(fetchMock).toHaveBeenCalledWith(`/api/query/file/${FILE_ID}`, expect.anything());
  });
});
