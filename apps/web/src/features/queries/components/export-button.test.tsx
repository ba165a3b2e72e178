import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../../../lib/i18n';
import { ExportButton } from './export-button';
import { urlOf } from '../../../test-support/fetch';

/** The export's body, fed chunk by chunk by the test. */
let body: ReadableStreamDefaultController<Uint8Array>;
/** Sends the export's headers (the fetch waits until then). */
let answer: () => void;
let savedAs: string[];

beforeEach(() => {
  savedAs = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(urlOf(input), 'http://localhost');
      if (url.pathname !== '/api/query/export/excel')
        return Promise.reject(new Error(`unexpected call ${url.pathname}`));
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          body = controller;
        },
      });
      const response = new Response(stream, {
        headers: {
          'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'content-disposition': 'attachment; filename="Orders.xlsx"',
          'x-total-rows': '10',
        },
      });
      return new Promise<Response>((resolve) => {
        answer = () => resolve(response);
      });
    }),
  );
  URL.createObjectURL = vi.fn(() => 'blob:export');
  URL.revokeObjectURL = vi.fn();
  HTMLAnchorElement.prototype.click = vi.fn(function (this: HTMLAnchorElement) {
    savedAs.push(this.download);
  });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const progressLine = () => screen.getByTestId('query-export-progress').textContent;

describe('query export', () => {
  it('counts the bytes of every chunk as it arrives, with the rows the file holds', async () => {
    const user = userEvent.setup({ delay: null });
    render(<ExportButton queryName="Orders" />);
    await user.click(screen.getByRole('button', { name: 'Export to spreadsheet' }));

    // No answer yet: no rows and no bytes to count.
    await waitFor(() => expect(progressLine()).toContain('Preparing the spreadsheet…'));
    answer();
    await waitFor(() => expect(progressLine()).toContain('Exporting 10 rows: 0 B received'));
    body.enqueue(new Uint8Array(1000));
    await waitFor(() => expect(progressLine()).toContain('Exporting 10 rows: 1000 B received'));
    // The next chunks come right after: each one still shows.
    body.enqueue(new Uint8Array(1500));
    await waitFor(() => expect(progressLine()).toContain('Exporting 10 rows: 2.4 KB received'));
    body.enqueue(new Uint8Array(2 * 1024 * 1024));
    await waitFor(() => expect(progressLine()).toContain('Exporting 10 rows: 2.0 MB received'));
    expect(savedAs).toEqual([]);

    body.close();
    await waitFor(() => expect(savedAs).toEqual(['Orders.xlsx']));
    expect(screen.queryByTestId('query-export-progress')).toBeNull();
  });
});
