import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router-dom';
import { MESSAGES } from '@pagewright/shared';
import { Toaster } from '../../../components/toaster';
import '../../../lib/i18n';
import { StatementRecognitionPage } from './statement-recognition-page';
import { closeToasts } from '../../../test-support/dom';
import { sentJson, urlOf } from '../../../test-support/fetch';

const TEMPLATE = {
  id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
  templateName: 'KYC',
  pageCount: 2,
  mappingCount: 3,
};
const pdf = (name: string) => new File(['%PDF-1.7\n%…'], name, { type: 'application/pdf' });
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: Mock<typeof fetch>;
let templates: unknown[];
/** Answers of pdf-to-text, released one by one by the test. */
let pending: ((response: Response) => void)[];

beforeEach(() => {
  templates = [TEMPLATE];
  pending = [];
  fetchMock = vi.fn((input: RequestInfo | URL) => {
    const url = urlOf(input);
    if (url === '/api/statement-recognition-template/user') return Promise.resolve(json(templates));
    if (url.startsWith('/api/statement-recognition/pdf-to-text/'))
      return new Promise<Response>((resolve) => pending.push(resolve));
    if (url === '/api/statement-recognition/text-to-csv-consolidated')
      return Promise.resolve(new Response('filename,page,label,value\r\na.pdf,1,Name,Ada\r\n'));
    return Promise.reject(new Error(`unexpected call ${url}`));
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  closeToasts();
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <StatementRecognitionPage />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup({ delay: null, applyAccept: false });
}

const result = (name: string, match: Record<string, unknown> = {}) =>
  json({
    file: name,
    fileName: name,
    text: `Page 1\nName: ${name}`,
    token: `token-${name}`,
    pageCount: 1,
    matchesTemplate: true,
    mismatches: [],
    failedBoxes: [],
    ...match,
  });

describe('the recognition screen', () => {
  it('refuses a 101st file and a file that is not a PDF, with the texts', async () => {
    const user = renderPage();
    const input = screen.getByTestId('pdf-input');
    await user.upload(
      input,
      Array.from({ length: 101 }, (_, index) => pdf(`s${index}.pdf`)),
    );
    expect(await screen.findByText(MESSAGES['recognition.too.many.files'])).toBeTruthy();
    await user.upload(input, [pdf('a.pdf'), new File(['PK\u0003\u0004'], 'b.pdf')]);
    expect(await screen.findByText(MESSAGES['recognition.not.pdf'])).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Process' })).toBeNull();
  });

  it('warns when no template is chosen, and when none exist', async () => {
    templates = [];
    const user = renderPage();
    expect(await screen.findByText(MESSAGES['template.none'])).toBeTruthy();
    await user.upload(screen.getByTestId('pdf-input'), [pdf('a.pdf')]);
    await user.click(await screen.findByRole('button', { name: 'Process' }));
    expect(await screen.findByText(MESSAGES['recognition.no.template'])).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => urlOf(url).includes('pdf-to-text'))).toBe(false);
  });

  it('sends three files at a time and advances the progress as each one finishes', async () => {
    const user = renderPage();
    await user.click(await screen.findByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'KYC' }));
    await user.upload(screen.getByTestId('pdf-input'), ['a.pdf', 'b.pdf', 'c.pdf', 'd.pdf'].map(pdf));
    await user.click(await screen.findByRole('button', { name: 'Process' }));
    await waitFor(() => expect(pending).toHaveLength(3));
    expect(screen.getByText('0 of 4 processed')).toBeTruthy();
    pending[0]?.(result('a.pdf'));
    expect(await screen.findByText('1 of 4 processed')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Processing' }).getAttribute('aria-valuenow')).toBe('25');
    await waitFor(() => expect(pending).toHaveLength(4));
    pending[1]?.(result('b.pdf'));
    pending[2]?.(json({ message: MESSAGES['recognition.error'], code: 'UNPROCESSABLE' }, 422));
    pending[3]?.(result('d.pdf'));
    expect(await screen.findByText('4 of 4 processed')).toBeTruthy();
    expect(screen.getAllByTestId('recognition-result')).toHaveLength(4);
    expect(screen.getAllByText(MESSAGES['recognition.error']).length).toBeGreaterThan(0);
    // Then the consolidated results of the three that were read.
    await user.click(await screen.findByRole('button', { name: 'Show consolidated results' }));
    const table = screen.getByRole('table', { name: 'Consolidated results' });
    expect(within(table).getByText('Ada')).toBeTruthy();
    const consolidated = fetchMock.mock.calls.find(([url]) =>
      urlOf(url).endsWith('text-to-csv-consolidated'),
    );
    expect(sentJson(consolidated?.[1])).toEqual({
      tokenList: ['token-a.pdf', 'token-b.pdf', 'token-d.pdf'],
    });
  });

  it('marks a file that does not match the template, with the reasons and the boxes that failed', async () => {
    const user = renderPage();
    await user.click(await screen.findByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'KYC' }));
    await user.upload(screen.getByTestId('pdf-input'), ['good.pdf', 'other.pdf', 'doubt.pdf'].map(pdf));
    await user.click(await screen.findByRole('button', { name: 'Process' }));
    await waitFor(() => expect(pending).toHaveLength(3));
    pending[0]?.(result('good.pdf'));
    pending[1]?.(
      result('other.pdf', {
        matchesTemplate: false,
        mismatches: ['it has 1 pages where the sample had 2'],
        failedBoxes: [{ page: 1, label: 'ISSN', problem: 'anchor-missing' }],
      }),
    );
    pending[2]?.(
      result('doubt.pdf', { failedBoxes: [{ page: 1, label: 'Amount', problem: 'unlike-sample' }] }),
    );
    expect(await screen.findByText('3 of 3 processed')).toBeTruthy();
    const [good, other, doubt] = screen.getAllByTestId('recognition-result');
    expect(within(good as HTMLElement).queryByTestId('template-match-note')).toBeNull();
    const mismatch = within(other as HTMLElement).getByTestId('template-match-note');
    expect(within(mismatch).getByText(MESSAGES['recognition.mismatch'])).toBeTruthy();
    expect(within(mismatch).getByText('it has 1 pages where the sample had 2')).toBeTruthy();
    expect(mismatch.textContent).toContain(`ISSN (page 1: ${MESSAGES['recognition.box.anchor.missing']})`);
    const warning = within(doubt as HTMLElement).getByTestId('template-match-note');
    expect(warning.textContent).not.toContain(MESSAGES['recognition.mismatch']);
    expect(warning.textContent).toContain(`Amount (page 1: ${MESSAGES['recognition.box.unlike.sample']})`);
  });

  it('keeps the order the files were given, whatever order they finish in, and drops the "ready" line', async () => {
    const user = renderPage();
    await user.click(await screen.findByRole('combobox', { name: 'Template' }));
    await user.click(await screen.findByRole('option', { name: 'KYC' }));
    await user.upload(screen.getByTestId('pdf-input'), ['a.pdf', 'b.pdf', 'c.pdf'].map(pdf));
    const ready = '3 PDF files ready. Choose a template and press Process.';
    expect(await screen.findByText(ready)).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Process' }));
    await waitFor(() => expect(pending).toHaveLength(3));
    expect(screen.queryByText(ready)).toBeNull();
    pending[2]?.(result('c.pdf'));
    expect(await screen.findByText('1 of 3 processed')).toBeTruthy();
    pending[1]?.(result('b.pdf'));
    expect(await screen.findByText('2 of 3 processed')).toBeTruthy();
    pending[0]?.(result('a.pdf'));
    expect(await screen.findByText('3 of 3 processed')).toBeTruthy();
    const names = screen
      .getAllByTestId('recognition-result')
      .map((card) => within(card).getByRole('heading').textContent);
    expect(names).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
    await screen.findByRole('button', { name: 'Show consolidated results' });
    const consolidated = fetchMock.mock.calls.find(([url]) =>
      urlOf(url).endsWith('text-to-csv-consolidated'),
    );
    expect(sentJson(consolidated?.[1])).toEqual({
      tokenList: ['token-a.pdf', 'token-b.pdf', 'token-c.pdf'],
    });
    expect(screen.queryByText(ready)).toBeNull();
  });
});
