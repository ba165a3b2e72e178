import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, type Page, chromium } from 'playwright-core';
import type { FlowAction } from '@pagewright/shared';
import { chromiumLaunchOptions } from '../chromium.js';
import type { AskRequest, FlowHooks, KeptFile, StepRecord } from './flow-types.js';
import { runFlow } from './run-flow.js';

const SECRET = 's3cr3t-Pa55';
const LOCAL = { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] };
const DOLLARS = {
  beforePositive: '$',
  afterPositive: '',
  beforeNegative: '-',
  afterNegative: '',
  decimalSeparator: '.',
  groupSeparator: ',',
};

const FORM_PAGE = `<!doctype html><title>form</title>
<input id="name"><input id="pass" type="password">
<select id="color"><option value="r">Red</option><option value="b">Blue</option></select>
<button id="go" onclick="setTimeout(() => {
  const g = document.getElementById('greeting');
  g.textContent = 'Hello ' + document.getElementById('name').value + ', ' + document.getElementById('color').value;
  g.style.display = 'block';
}, 400)">Go</button>
<p id="greeting" style="display:none"></p>
<span id="balance">$1,234.50</span><span id="updated">01/31/2024 09:00:00</span>
<ul><li>a</li><li>b</li><li>c</li></ul>
<img id="captcha" alt="captcha" width="40" height="20" style="background:#ccc"><input id="code">`;

function reportPage(page: number): string {
  const rows = [1, 2]
    .map((n) => {
      const id = (page - 1) * 2 + n;
      return `<tr><td>Item ${id}</td><td>$${id},000.25</td><td>0${id}/15/2024</td><td><a href="/files/item-${id}.csv">csv</a></td></tr>`;
    })
    .join('');
  const next =
    page === 1 ? '<a id="next" href="/report?page=2">Next</a>' : '<button id="next" disabled>Next</button>';
  return `<!doctype html><table id="report"><tbody>${rows}</tbody></table>${next}`;
}

let server: Server;
let base: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/files/')) {
      response.writeHead(200, { 'content-type': 'text/csv' });
      response.end(`file,${url.pathname}`);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      url.pathname === '/report' ? reportPage(Number(url.searchParams.get('page') ?? 1)) : FORM_PAGE,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const css = (selectorValue: string) => ({
  selectorType: 'CSS' as const,
  selectorValue,
  framePath: [],
  fallbackLocators: [],
});

function hooksFor(
  answers: string[],
): FlowHooks & { asked: AskRequest[]; files: KeptFile[]; lines: string[] } {
  const asked: AskRequest[] = [];
  const files: KeptFile[] = [];
  const lines: string[] = [];
  let total = 0;
  return {
    asked,
    files,
    lines,
    ask: async (request) => {
      asked.push(request);
      return answers.shift() ?? 'CANCELED';
    },
    onStepStart: (_action, _index, count) => {
      total = count;
    },
    onStepDone: (step: StepRecord) => {
      lines.push(`${Math.round(((lines.length + 1) / total) * 100)}|${step.type}`);
    },
    keepFile: async (file) => {
      files.push(file);
    },
  };
}

describe('runFlow in Chromium', () => {
  it('runs an extractor flow end to end', async () => {
    const flow: FlowAction[] = [
      { sequence: 10, type: 'NAVIGATE', options: { text: `${base}/form` } },
      { sequence: 20, type: 'TYPE_TEXT', target: css('#name'), options: { text: 'Ada' } },
      { sequence: 30, type: 'TYPE_PASSWORD', target: css('#pass'), options: { text: SECRET } },
      {
        sequence: 40,
        type: 'CLICK_SELECT',
        target: css('#color'),
        options: { select: { option: 'Blue', options: [] } },
      },
      { sequence: 50, type: 'CLICK', target: css('#go'), options: {} },
      { sequence: 60, type: 'WAIT_UNTIL_DISPLAYED', target: css('#greeting'), options: { timeoutMs: 5_000 } },
      { sequence: 70, type: 'GET_TEXT', target: css('#greeting'), options: {} },
      {
        sequence: 80,
        type: 'GET_NUMBER',
        target: css('#balance'),
        options: { numberFormat: DOLLARS },
      },
      {
        sequence: 90,
        type: 'GET_DATE',
        target: css('#updated'),
        options: { datetimeFormat: { mask: 'MM/dd/yyyy hh:mm:ss', gmt: 'America/New_York' } },
      },
      {
        sequence: 100,
        type: 'IF_EXISTS',
        target: css('#promo'),
        options: { timeoutMs: 300, sequenceDestination: 120 },
      },
      { sequence: 110, type: 'RAISE_ERROR', options: { text: 'must be jumped over' } },
      {
        sequence: 120,
        type: 'IF_CONDITION',
        options: {
          condition: { sequenceSource: 80, condition: 'GREATER_THAN', value: '$1,000.00' },
          sequenceDestination: 1000,
        },
      },
      {
        sequence: 130,
        type: 'SCRIPT',
        options: {
          script: { script: "return document.querySelectorAll('li').length;", returnType: 'NUMBER' },
        },
      },
      {
        sequence: 140,
        type: 'SCRIPT',
        options: {
          script: {
            script:
              "return [...document.querySelectorAll('li')].map((li, i) => ({ item: li.textContent, rank: i + 1 }));",
            returnType: 'TABLE',
          },
        },
      },
      { sequence: 150, type: 'ASK_CODE', target: css('#code'), options: { text: 'Code from the SMS?' } },
      { sequence: 160, type: 'GET_TEXT', target: css('#code'), options: {} },
      { sequence: 170, type: 'NAVIGATE', options: { text: `${base}/report?page=1` } },
      {
        sequence: 180,
        type: 'GET_TABLE',
        options: {
          table: {
            name: 'report',
            tableSelector: '#report',
            rowSelector: 'tbody tr',
            nextPageSelector: '#next',
            maxPages: 5,
            columns: [
              { label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' },
              { label: 'Amount', selector: 'td:nth-child(2)', type: 'NUMBER', numberMask: DOLLARS },
              {
                label: 'Date',
                selector: 'td:nth-child(3)',
                type: 'DATETIME',
                dateMask: { mask: 'MM/dd/yyyy', gmt: 'Etc/GMT0' },
              },
              { label: 'File', selector: 'td:nth-child(4)', type: 'FILE' },
            ],
          },
        },
      },
      { sequence: 190, type: 'END', options: {} },
      { sequence: 200, type: 'RAISE_ERROR', options: { text: 'after END' } },
    ];
    const hooks = hooksFor(['123456']);
    const result = await runFlow(page, flow, hooks, { navigationPolicy: LOCAL });

    expect(result.error).toBeUndefined();
    expect(result.status).toBe('SUCCESS');
    expect(result.values[70]).toEqual({ kind: 'text', value: 'Hello Ada, b' });
    expect(result.values[80]).toEqual({ kind: 'number', value: 1234.5 });
    expect(result.values[90]).toEqual({ kind: 'datetime', value: '2024-01-31T14:00:00.000Z' });
    expect(result.values[130]).toEqual({ kind: 'number', value: 3 });
    expect(result.values[140]).toEqual({
      kind: 'table',
      columns: [
        { label: 'item', type: 'TEXT' },
        { label: 'rank', type: 'NUMBER' },
      ],
      rows: [
        ['a', 1],
        ['b', 2],
        ['c', 3],
      ],
    });
    expect(result.values[160]).toEqual({ kind: 'text', value: '123456' });
    expect(result.values[150]).toEqual({ kind: 'none' });
    const table = result.values[180];
    expect(table?.kind === 'table' && table.rows).toEqual([
      ['Item 1', 1000.25, '2024-01-15T00:00:00.000Z', `${base}/files/item-1.csv`],
      ['Item 2', 2000.25, '2024-02-15T00:00:00.000Z', `${base}/files/item-2.csv`],
      ['Item 3', 3000.25, '2024-03-15T00:00:00.000Z', `${base}/files/item-3.csv`],
      ['Item 4', 4000.25, '2024-04-15T00:00:00.000Z', `${base}/files/item-4.csv`],
    ]);
    expect(hooks.files.map((file) => [file.fileName, file.mimeType, file.content.toString()])).toContainEqual(
      ['item-3.csv', 'text/csv', 'file,/files/item-3.csv'],
    );

    expect(hooks.asked).toHaveLength(1);
    expect(hooks.asked[0]?.question).toBe('Code from the SMS?');
    expect(hooks.asked[0]?.elementScreenshot?.subarray(1, 4).toString()).toBe('PNG');

    const statusBySequence = Object.fromEntries(result.steps.map((step) => [step.sequence, step.status]));
    expect(statusBySequence[110]).toBe('SKIPPED');
    expect(statusBySequence[200]).toBeUndefined();
    expect(result.steps.at(-1)?.type).toBe('END');
    expect(hooks.lines).toHaveLength(result.steps.length);

    const typed = result.steps.find((step) => step.sequence === 20);
    expect(typed?.elementBox?.width).toBeGreaterThan(0);
    expect(typed?.elementScreenshot?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(typed?.pageScreenshot?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(
      result.steps.every(
        (step) => !JSON.stringify({ ...step, elementScreenshot: 0, pageScreenshot: 0 }).includes(SECRET),
      ),
    ).toBe(true);
    expect(JSON.stringify(result.values)).not.toContain(SECRET);
  });

  it('gets files and images, times scripts out and refuses private addresses by default', async () => {
    await page.goto(`${base}/report?page=2`);
    const hooks = hooksFor([]);
    const result = await runFlow(
      page,
      [
        { sequence: 10, type: 'GET_FILE', target: css('#report a'), options: {} },
        { sequence: 20, type: 'GET_IMAGE', target: css('#report'), options: {} },
        { sequence: 30, type: 'SCROLL_BOTTOM', options: {} },
        {
          sequence: 40,
          type: 'SCRIPT',
          options: { script: { script: 'await new Promise(() => {});', returnType: 'VOID' }, timeoutMs: 200 },
        },
      ],
      hooks,
      { capturePageScreenshots: false, navigationPolicy: LOCAL },
    );
    expect(result.values[10]).toEqual({
      kind: 'file',
      fileName: 'item-3.csv',
      mimeType: 'text/csv',
      size: 22,
    });
    expect(result.values[20]).toMatchObject({ kind: 'image', mimeType: 'image/png' });
    expect(hooks.files.map((file) => file.mimeType)).toEqual(['text/csv', 'image/png']);
    expect([result.status, result.error?.code, result.error?.sequence]).toEqual(['ERROR', 100028, 40]);

    const refused = await runFlow(
      page,
      [{ sequence: 10, type: 'NAVIGATE', options: { text: `${base}/form` } }],
      hooksFor([]),
      {
        capturePageScreenshots: false,
      },
    );
    expect([refused.status, refused.error?.code]).toEqual(['ERROR', 100061]);
    expect(refused.error?.originalMessage).toContain('refused');
  });

  it('stops a script that runs past its time limit, so the page answers again', async () => {
    await page.goto(`${base}/report?page=2`);
    const result = await runFlow(
      page,
      [
        {
          sequence: 10,
          type: 'SCRIPT',
          options: { script: { script: 'while (true) {}', returnType: 'VOID' }, timeoutMs: 300 },
        },
      ],
      hooksFor([]),
      { capturePageScreenshots: false, captureNormalizedHtml: false, navigationPolicy: LOCAL },
    );
    expect([result.status, result.error?.code]).toEqual(['ERROR', 100028]);
    // A frozen main thread would never answer this.
    const answer = await Promise.race([
      page.evaluate('document.title.length >= 0'),
      // eslint-disable-next-line no-restricted-syntax -- a safety net, not a sleep: a frozen page never answers, and the test must end saying so
      new Promise((resolve) => setTimeout(() => resolve('page still frozen'), 3_000)),
    ]);
    expect(answer).toBe(true);
  });

  it('reads only data rows of a table: a header row of th cells is left out, an empty cell stays', async () => {
    await page.setContent(`<table id="t">
      <tr><th>Name</th><th>Amount</th></tr>
      <tr><td>Ann</td><td>12</td></tr>
      <tr><td></td><td>7</td></tr>
    </table>`);
    const result = await runFlow(
      page,
      [
        {
          sequence: 10,
          type: 'GET_TABLE',
          options: {
            table: {
              name: 'rows',
              tableSelector: '#t',
              rowSelector: 'tr',
              maxPages: 1,
              columns: [
                { label: 'Name', selector: 'td:nth-child(1)', type: 'TEXT' },
                { label: 'Amount', selector: 'td:nth-child(2)', type: 'NUMBER' },
              ],
            },
          },
        },
      ],
      hooksFor([]),
      { capturePageScreenshots: false, captureNormalizedHtml: false, navigationPolicy: LOCAL },
    );
    expect(result.values[10]).toMatchObject({
      kind: 'table',
      rows: [
        ['Ann', 12],
        [null, 7],
      ],
    });
  });

  it('reads a table behind a "Load more" button once: the rows kept above are not read again', async () => {
    // Adminer's "Load more data": each click appends the next rows under those already shown.
    await page.setContent(`<table id="t"><tbody id="rows"></tbody></table>
      <a href="#" id="more">Load more data</a>
      <script>
        let shown = 0;
        const more = () => {
          for (const end = Math.min(shown + 4, 10); shown < end; ) {
            shown += 1;
            const row = document.createElement('tr');
            row.innerHTML = '<td id="val-' + shown + '">Customer ' + shown + '</td>';
            document.getElementById('rows').append(row);
          }
          if (shown === 10) document.getElementById('more').remove();
        };
        document.getElementById('more').addEventListener('click', (event) => { event.preventDefault(); more(); });
        more();
      </script>`);
    const result = await runFlow(
      page,
      [
        {
          sequence: 10,
          type: 'GET_TABLE',
          options: {
            table: {
              name: 'customers',
              tableSelector: '#t',
              rowSelector: 'tbody > tr',
              nextPageSelector: '#more',
              maxPages: 10,
              columns: [{ label: 'Name', selector: 'td:nth-of-type(1)', type: 'TEXT' }],
            },
          },
        },
      ],
      hooksFor([]),
      { capturePageScreenshots: false, captureNormalizedHtml: false, navigationPolicy: LOCAL },
    );
    expect(result.status).toBe('SUCCESS');
    const value = result.values[10];
    expect(value?.kind === 'table' ? value.rows.map((row) => row[0]) : []).toEqual(
      Array.from({ length: 10 }, (_, index) => `Customer ${index + 1}`),
    );
  });

  it('ends with ERROR and the message of RAISE_ERROR', async () => {
    const result = await runFlow(
      page,
      [
        { sequence: 10, type: 'WAIT', options: { number: Number.NaN } },
        { sequence: 20, type: 'RAISE_ERROR', options: { text: 'Balance is too low' } },
        { sequence: 30, type: 'END', options: {} },
      ],
      hooksFor([]),
      { capturePageScreenshots: false },
    );
    expect(result.status).toBe('ERROR');
    expect(result.error?.originalMessage).toBe('Balance is too low');
    expect(result.error?.sequence).toBe(20);
    expect(result.steps.map((step) => step.status)).toEqual(['SUCCESS', 'ERROR']);
  });

  it('refuses a jump back with 100061', async () => {
    await page.setContent('<p>nothing here</p>');
    const result = await runFlow(
      page,
      [
        {
          sequence: 10,
          type: 'IF_EXISTS',
          target: css('#missing'),
          options: { timeoutMs: 100, sequenceDestination: 10 },
        },
        { sequence: 20, type: 'END', options: {} },
      ],
      hooksFor([]),
      { capturePageScreenshots: false },
    );
    expect(result.status).toBe('ERROR');
    expect(result.error?.code).toBe(100061);
  });

  it('stops when an ask is canceled', async () => {
    await page.setContent('<input id="answer">');
    const hooks = hooksFor(['CANCELED']);
    const result = await runFlow(
      page,
      [
        {
          sequence: 10,
          type: 'ASK_QUESTION',
          target: css('#answer'),
          options: { text: 'Mother maiden name?' },
        },
        { sequence: 20, type: 'RAISE_ERROR', options: { text: 'not reached' } },
      ],
      hooks,
      { capturePageScreenshots: false },
    );
    expect(result.status).toBe('STOPPED');
    expect(result.error).toBeUndefined();
    expect(hooks.asked).toHaveLength(1);
  });

  it('fails with 100007 when the element is missing', async () => {
    await page.setContent('<button id="other">x</button>');
    const result = await runFlow(
      page,
      [{ sequence: 10, type: 'CLICK', target: css('#absent'), options: {} }],
      hooksFor([]),
      {
        capturePageScreenshots: false,
        limits: { elementTimeoutMs: 300 },
      },
    );
    expect(result.status).toBe('ERROR');
    expect(result.error?.code).toBe(100007);
    expect(result.error?.codeName).toBe('No Such Element');
    expect(result.error?.originalMessage).toContain('#absent');
  });

  it('pictures only the failed step when only failures are to be kept (a bulk run item)', async () => {
    await page.setContent('<p id="here">here</p>');
    const result = await runFlow(
      page,
      [
        { sequence: 10, type: 'GET_TEXT', target: css('#here'), options: {} },
        { sequence: 20, type: 'CLICK', target: css('#absent'), options: {} },
      ],
      hooksFor([]),
      {
        capturePageScreenshots: false,
        captureElementScreenshots: false,
        captureNormalizedHtml: false,
        captureFailedStepScreenshot: true,
        limits: { elementTimeoutMs: 300 },
      },
    );
    expect(result.status).toBe('ERROR');
    const [read, failed] = result.steps;
    expect(read).toMatchObject({ status: 'SUCCESS' });
    expect(read?.pageScreenshot).toBeUndefined();
    expect(read?.elementScreenshot).toBeUndefined();
    expect(read?.normalizedHtml).toBeUndefined();
    expect(failed).toMatchObject({ status: 'ERROR', sequence: 20 });
    // A JPEG of the page where it failed.
    expect(failed?.pageScreenshot?.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });
});
