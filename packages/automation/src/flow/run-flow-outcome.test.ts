import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowAction } from '@pagewright/shared';
import {
  LOCAL_POLICY,
  WITHOUT_PICTURES,
  css,
  openFlowPage,
  quietHooks,
  type FlowPage,
} from '../test/flow-page.js';
import { AUTOMATION_CODES } from './classify-error.js';
import { runFlow } from './run-flow.js';

/**
 * An admin tool's edit form as real ones are: Save posts with fetch and shows "Item has been
 * updated." when the answer comes; Submit posts the form (a navigation) to a slow server; a
 * native list for the category.
 */
const EDIT_PAGE = `<!doctype html><title>edit</title>
<form id="edit" method="post" action="/submitted">
<input id="name" name="name"><select id="category" name="category"><option value="a">Alpha</option><option value="b">Beta</option></select>
<button id="save" type="button">Save</button><button id="broken" type="button">Save (broken)</button>
<button id="submit" type="submit">Submit</button></form>
<p id="status">Editing</p>
<script>
  const status = document.getElementById('status');
  document.getElementById('save').addEventListener('click', async () => {
    status.textContent = 'Saving…';
    const answer = await fetch('/save', { method: 'POST', body: document.getElementById('name').value });
    status.textContent = await answer.text();
  });
  document.getElementById('broken').addEventListener('click', () => (status.textContent = 'Saving…'));
</script>`;

/** A cookie banner over the whole page: it takes every click until accepted. */
const CONSENT_PAGE = `<!doctype html><title>checkout</title>
<button id="continue">Continue</button><p id="result">Not yet</p>
<div id="consent" role="dialog" aria-label="Cookie consent" style="position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:flex-end">
<button id="accept">Accept all</button></div>
<script>
  document.getElementById('accept').addEventListener('click', () => document.getElementById('consent').remove());
  document.getElementById('continue').addEventListener('click', () => (document.getElementById('result').textContent = 'Continued'));
</script>`;

let site: FlowPage;

beforeAll(async () => {
  site = await openFlowPage((request, response) => {
    const later = (ms: number, body: string) =>
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(body);
      }, ms);
    if (request.url === '/save') return void later(600, 'Item has been updated.');
    // The next page says where it is only once its (slow) script has loaded.
    if (request.url === '/submitted')
      return void later(0, '<p id="status">Loading…</p><script src="/slow.js"></script>');
    if (request.url === '/slow.js')
      return void later(600, "document.getElementById('status').textContent = 'Submitted';");
    if (request.url === '/consent') return void later(0, CONSENT_PAGE);
    later(0, EDIT_PAGE);
  });
});

afterAll(async () => {
  await site?.close();
});

const run = (actions: FlowAction[]) =>
  runFlow(site.page, actions, quietHooks, { ...WITHOUT_PICTURES, navigationPolicy: LOCAL_POLICY });
const open = (): FlowAction => ({ sequence: 10, type: 'NAVIGATE', options: { text: `${site.base}/edit` } });
const readStatus: FlowAction = { sequence: 90, type: 'GET_TEXT', target: css('#status'), options: {} };

describe('a step is done when what it started has landed', () => {
  it('a click whose save answers later is followed by the page that shows the answer', async () => {
    const result = await run([
      open(),
      { sequence: 20, type: 'CLICK', target: css('#save'), options: {} },
      readStatus,
    ]);
    expect(result.status).toBe('SUCCESS');
    expect(result.values[90]).toEqual({ kind: 'text', value: 'Item has been updated.' });
  });

  it('a click that submits a form waits for the next page to have loaded', async () => {
    const result = await run([
      open(),
      { sequence: 20, type: 'CLICK', target: css('#submit'), options: {} },
      readStatus,
    ]);
    expect(result.status).toBe('SUCCESS');
    expect(result.values[90]).toEqual({ kind: 'text', value: 'Submitted' });
  });
});

describe('Check text', () => {
  const check = (text: string, timeoutMs = 1_500): FlowAction => ({
    sequence: 30,
    type: 'CHECK_TEXT',
    options: { text, timeoutMs },
  });

  it('passes when the page shows the text, whatever its case and spacing', async () => {
    const result = await run([
      open(),
      { sequence: 20, type: 'CLICK', target: css('#save'), options: {} },
      check('item has  been updated.'),
    ]);
    expect(result.status).toBe('SUCCESS');
    expect(result.values[30]).toEqual({ kind: 'text', value: 'item has  been updated.' });
  });

  it('fails the run when the save never said so, quoting the text', async () => {
    const result = await run([
      open(),
      { sequence: 20, type: 'CLICK', target: css('#broken'), options: {} },
      check('Item has been updated.'),
    ]);
    expect(result.status).toBe('ERROR');
    expect(result.error).toMatchObject({
      code: AUTOMATION_CODES.NO_SUCH_ELEMENT,
      originalMessage: "The page did not show 'Item has been updated.' within 2 s",
      sequence: 30,
    });
  });
});

describe('native lists', () => {
  it('Select option chooses an option; Type text on a list says to use Select option', async () => {
    const chosen = await run([
      open(),
      {
        sequence: 20,
        type: 'CLICK_SELECT',
        target: css('#category'),
        options: { select: { option: 'Beta', options: [] } },
      },
      { sequence: 30, type: 'GET_TEXT', target: css('#category'), options: {} },
    ]);
    expect(chosen.values[30]).toEqual({ kind: 'text', value: 'b' });

    const typed = await run([
      open(),
      { sequence: 20, type: 'TYPE_TEXT', target: css('#category'), options: { text: 'Beta' } },
    ]);
    expect(typed.error).toMatchObject({
      code: AUTOMATION_CODES.INVALID_ELEMENT_STATE,
      originalMessage:
        'This element is a list (a <select>): text cannot be typed into it; record Select option to choose one of its options',
    });
  });
});

describe('a click another element takes', () => {
  it('names the covering element, without Playwright’s method or call log', async () => {
    const result = await run([
      { sequence: 10, type: 'NAVIGATE', options: { text: `${site.base}/consent` } },
      { sequence: 20, type: 'CLICK', target: css('#continue'), options: { timeoutMs: 1_500 } },
    ]);
    expect(result.status).toBe('ERROR');
    expect(result.error).toMatchObject({
      code: AUTOMATION_CODES.ELEMENT_CLICK_INTERCEPTED,
      originalMessage:
        'Another element covers it and would take the click: dialog "Cookie consent" (#consent)',
    });
    expect(result.error?.details).toContain('intercepts pointer events');

    const accepted = await run([
      { sequence: 10, type: 'NAVIGATE', options: { text: `${site.base}/consent` } },
      { sequence: 15, type: 'CLICK', target: css('#accept'), options: {} },
      { sequence: 20, type: 'CLICK', target: css('#continue'), options: {} },
      { sequence: 30, type: 'GET_TEXT', target: css('#result'), options: {} },
    ]);
    expect(accepted.values[30]).toEqual({ kind: 'text', value: 'Continued' });
  });
});

describe('asks tied to a field', () => {
  it('an asked password with no field (saved before asks had one) fails instead of typing it nowhere', async () => {
    let asked = 0;
    const result = await runFlow(
      site.page,
      [open(), { sequence: 20, type: 'ASK_PASSWORD', options: { text: 'Password?' } }],
      { ...quietHooks, ask: () => Promise.resolve(String(++asked)) },
      { ...WITHOUT_PICTURES, navigationPolicy: LOCAL_POLICY },
    );
    expect(asked).toBe(0);
    expect(result.error).toMatchObject({
      code: AUTOMATION_CODES.INVALID_ARGUMENT,
      originalMessage:
        'Ask password has no field to type the answer into: record it again, picking the field first',
    });
  });
});

describe('scrolling by the wheel', () => {
  it('scrolls the page by the recorded pixels where the wheel was, not a whole viewport', async () => {
    await site.page.setContent('<div style="height:3000px">long</div>');
    const result = await runFlow(
      site.page,
      [{ sequence: 10, type: 'SCROLL_DOWN', options: { number: 240, point: { x: 100, y: 100 } } }],
      quietHooks,
      { ...WITHOUT_PICTURES, navigationPolicy: LOCAL_POLICY },
    );
    expect(result.status).toBe('SUCCESS');
    await expect.poll(() => site.page.evaluate(() => window.scrollY)).toBe(240);
    await runFlow(site.page, [{ sequence: 10, type: 'SCROLL_UP', options: { number: 40 } }], quietHooks, {
      ...WITHOUT_PICTURES,
      navigationPolicy: LOCAL_POLICY,
    });
    await expect.poll(() => site.page.evaluate(() => window.scrollY)).toBe(200);
  });
});
