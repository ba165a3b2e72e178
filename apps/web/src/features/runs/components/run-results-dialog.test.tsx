import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MESSAGES, type RunDetail, type RunStep } from '@pagewright/shared';
import '../../../lib/i18n';
import { RunResultsDialog } from './run-results-dialog';
import { formatDateTime, formatNumber } from './step-value';
import { RUN_REFRESH_INTERVAL_MS } from '../api/get-run';
import { CLOCK_MARGIN_MS, advance, installFakeClock } from '../../../test-support/clock';
import { urlOf } from '../../../test-support/fetch';

const RUN_ID = '8c3f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b';
const RUN_PATH = `/api/extractor/run/${RUN_ID}`;

const step = (overrides: Partial<RunStep> & Pick<RunStep, 'sequence'>): RunStep => ({
  actionType: 'CLICK',
  label: null,
  pageUrl: 'http://127.0.0.1/shop',
  timestamp: '2026-03-01T10:00:10.000Z',
  value: null,
  errorMessage: null,
  locatedBy: null,
  hasPageScreenshot: false,
  hasElementScreenshot: false,
  hasNormalizedHtml: false,
  fileName: null,
  tableFiles: [],
  ...overrides,
});

const failedRun: RunDetail = {
  id: RUN_ID,
  extractorId: '7b2f0c3e-2b4d-4e5f-8a9b-0c1d2e3f4a5b',
  status: 'ERROR',
  trigger: 'MANUAL',
  startedAt: '2026-03-01T10:00:00.000Z',
  finishedAt: '2026-03-01T10:00:30.000Z',
  errorCode: 100007,
  errorMessage: 'No element matches CSS "#buy" within 10000 ms',
  errorSequence: 70,
  inputs: {},
  browserName: null,
  waitingForWorker: false,
  steps: [
    step({ sequence: 10, actionType: 'NAVIGATE', hasPageScreenshot: true, hasNormalizedHtml: true }),
    step({
      sequence: 20,
      actionType: 'GET_TEXT',
      label: 'Welcome',
      value: { kind: 'text', value: 'Welcome, ops-user' },
    }),
    step({
      sequence: 30,
      actionType: 'GET_NUMBER',
      label: 'Total',
      value: { kind: 'number', value: 1234.5 },
    }),
    step({
      sequence: 40,
      actionType: 'GET_DATE',
      label: 'Due',
      value: { kind: 'datetime', value: '2026-03-01T10:00:00.000Z' },
    }),
    step({
      sequence: 50,
      actionType: 'GET_TABLE',
      label: 'Invoices',
      value: {
        kind: 'table',
        columns: [
          { label: 'Name', type: 'TEXT' },
          { label: 'Price', type: 'NUMBER' },
          { label: 'Invoice', type: 'FILE' },
        ],
        rows: [
          ['Apples', 10, 'apples.pdf'],
          ['Pears', 20.5, null],
        ],
      },
      tableFiles: [{ row: 0, column: 2, fileName: 'apples.pdf' }],
    }),
    step({
      sequence: 60,
      actionType: 'GET_FILE',
      label: 'Statement',
      value: { kind: 'file', fileName: 'statement.pdf', mimeType: 'application/pdf', size: 2048 },
      fileName: 'statement.pdf',
    }),
    step({
      sequence: 70,
      actionType: 'CLICK',
      label: 'Buy',
      errorMessage: 'No element matches CSS "#buy" within 10000 ms',
    }),
  ],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers of the run endpoint in order (the last repeats); files answer a PDF. */
let runAnswers: RunDetail[];
let runCalls: number;
let fetchMock: Mock<typeof fetch>;

beforeEach(() => {
  runCalls = 0;
  fetchMock = vi.fn((input: RequestInfo | URL) => {
    const url = urlOf(input);
    if (url === RUN_PATH) {
      const answer = runAnswers[Math.min(runCalls, runAnswers.length - 1)]!;
      runCalls += 1;
      return Promise.resolve(json(answer));
    }
    if (url.startsWith(`${RUN_PATH}/step/`)) {
      return Promise.resolve(
        new Response(new Blob(['%PDF']), {
          headers: { 'content-disposition': 'attachment; filename="apples.pdf"' },
        }),
      );
    }
    return Promise.reject(new Error(`unexpected call ${url}`));
  });
  vi.stubGlobal('fetch', fetchMock);
  // jsdom has no object URLs; the save flow only needs one to hand to a link.
  URL.createObjectURL = vi.fn(() => 'blob:run-file');
  URL.revokeObjectURL = vi.fn();
  HTMLAnchorElement.prototype.click = vi.fn();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <RunResultsDialog runId={RUN_ID} name="Shop prices" onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose };
}

describe('RunResultsDialog', () => {
  it("names the browser host a run went to, and says nothing of the worker's own browser", async () => {
    runAnswers = [{ ...failedRun, browserName: 'browsers-2' }];
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: /Run results: Shop prices/ });
    expect(await within(dialog).findByText(/on browser host browsers-2/)).toBeTruthy();
    cleanup();

    runAnswers = [{ ...failedRun, browserName: 'local' }];
    renderDialog();
    const local = await screen.findByRole('dialog', { name: /Run results: Shop prices/ });
    await within(local).findByText(/Failed at step 70/);
    expect(within(local).queryByText(/browser host/)).toBeNull();
  });

  it('shows each step and what it read: text, number, date-time, table with a FILE link, file, failing step', async () => {
    runAnswers = [failedRun];
    const user = userEvent.setup({ delay: null });
    const { onClose } = renderDialog();

    const dialog = await screen.findByRole('dialog', { name: /Run results: Shop prices/ });
    expect((await within(dialog).findByTestId('run-status')).textContent).toContain('Error');
    expect(
      within(dialog).getByText(
        'Failed at step 70: No Such Element (100007): No element matches CSS "#buy" within 10000 ms',
      ),
    ).toBeTruthy();

    const stepNamed = (name: string) => within(dialog).getByRole('listitem', { name });
    expect(within(stepNamed('Step 20: Get text')).getByText('Welcome, ops-user')).toBeTruthy();
    expect(within(stepNamed('Step 30: Get number')).getByText(formatNumber(1234.5))).toBeTruthy();

    const due = within(stepNamed('Step 40: Get date')).getByText(formatDateTime('2026-03-01T10:00:00.000Z')!);
    expect(due.tagName).toBe('TIME');
    expect(due.getAttribute('datetime')).toBe('2026-03-01T10:00:00.000Z');
    await user.hover(due);
    expect((await screen.findByRole('tooltip')).textContent).toContain('As read: 2026-03-01T10:00:00.000Z');

    const table = within(stepNamed('Step 50: Get table')).getByRole('table');
    expect(within(table).getByRole('columnheader', { name: 'Price (Number)' })).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: 'Invoice (File)' })).toBeTruthy();
    expect(within(table).getByText('Pears')).toBeTruthy();
    expect(within(table).getByText(formatNumber(20.5))).toBeTruthy();
    // Only the cell that kept a file is a link; the empty one shows a dash.
    expect(within(table).getAllByRole('button')).toHaveLength(1);
    await user.click(within(table).getByRole('button', { name: 'Download apples.pdf (row 1, Invoice)' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(`${RUN_PATH}/step/50/file?row=0&column=2`, expect.anything()),
    );

    await user.click(
      within(stepNamed('Step 60: Get file')).getByRole('button', { name: 'Download statement.pdf' }),
    );
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(`${RUN_PATH}/step/60/file`, expect.anything()),
    );
    expect(within(stepNamed('Step 60: Get file')).getByText('2 KB')).toBeTruthy();

    const failing = stepNamed('Step 70: Click');
    expect(failing.getAttribute('data-failed')).toBe('true');
    expect(within(failing).getByRole('alert').textContent).toContain(
      'The run failed here: No Such Element (100007): No element matches CSS "#buy" within 10000 ms',
    );
    expect(stepNamed('Step 20: Get text').getAttribute('data-failed')).toBeNull();

    // Evidence of a step: the HTML is shown as text, never rendered.
    runAnswers = [failedRun];
    fetchMock.mockImplementationOnce(() => Promise.resolve(new Response('<main><h1>Shop</h1></main>')));
    await user.click(within(stepNamed('Step 10: Navigate')).getByRole('button', { name: 'Page HTML' }));
    const html = await screen.findByRole('dialog', { name: 'Step 10: page HTML' });
    expect(await within(html).findByText('<main><h1>Shop</h1></main>')).toBeTruthy();
    expect(html.querySelector('h1')).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Step 10: page HTML' })).toBeNull());

    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });

  it('shows progress while the run executes and reads it again until it ends', async () => {
    const executing: RunDetail = {
      ...failedRun,
      status: 'EXECUTING',
      finishedAt: null,
      errorCode: null,
      errorMessage: null,
      errorSequence: null,
      steps: failedRun.steps.slice(0, 2),
    };
    runAnswers = [
      executing,
      {
        ...failedRun,
        status: 'SUCCESS',
        errorCode: null,
        errorMessage: null,
        errorSequence: null,
        steps: failedRun.steps.slice(0, 3),
      },
    ];
    installFakeClock();
    renderDialog();
    await advance(0);

    const dialog = screen.getByRole('dialog', { name: /Run results: Shop prices/ });
    expect(within(dialog).getByTestId('run-status').textContent).toContain('Executing');
    expect(within(dialog).getByRole('progressbar')).toBeTruthy();
    expect(within(dialog).queryByRole('listitem', { name: 'Step 30: Get number' })).toBeNull();

    await advance(RUN_REFRESH_INTERVAL_MS - CLOCK_MARGIN_MS);
    expect(runCalls).toBe(1);
    expect(within(dialog).getByTestId('run-status').textContent).toContain('Executing');
    await advance(2 * CLOCK_MARGIN_MS);
    expect(runCalls).toBe(2);
    expect(within(dialog).getByTestId('run-status').textContent).toContain('Success');
    expect(within(dialog).getByRole('listitem', { name: 'Step 30: Get number' })).toBeTruthy();
    expect(within(dialog).queryByRole('progressbar')).toBeNull();
  });

  it('says the run waits for a worker while none is running, until one takes it', async () => {
    const queued: RunDetail = {
      ...failedRun,
      status: 'EXECUTING',
      finishedAt: null,
      errorCode: null,
      errorMessage: null,
      errorSequence: null,
      waitingForWorker: true,
      steps: [],
    };
    runAnswers = [queued, { ...queued, waitingForWorker: false, steps: failedRun.steps.slice(0, 1) }];
    installFakeClock();
    renderDialog();
    await advance(0);

    const dialog = screen.getByRole('dialog', { name: /Run results: Shop prices/ });
    expect(within(dialog).getByRole('alert').textContent).toBe(MESSAGES['run.waiting.for.worker']);
    await advance(RUN_REFRESH_INTERVAL_MS - CLOCK_MARGIN_MS);
    expect(runCalls).toBe(1);
    expect(within(dialog).getByRole('alert').textContent).toBe(MESSAGES['run.waiting.for.worker']);
    await advance(2 * CLOCK_MARGIN_MS);
    expect(runCalls).toBe(2);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).getByText('Executing: the steps appear as they run…')).toBeTruthy();
  });
});
