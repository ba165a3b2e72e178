import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowAction, PageDialogAnswer } from '@pagewright/shared';
import {
  LOCAL_POLICY as LOCAL,
  WITHOUT_PICTURES as fast,
  css,
  openFlowPage,
  quietHooks as hooks,
  type FlowPage,
} from '../test/flow-page.js';
import { AUTOMATION_CODES } from './classify-error.js';
import type { FlowHooks } from './flow-types.js';
import { runFlow } from './run-flow.js';

/** A shop form as real ones are: the submit asks confirm(), a rename asks prompt(), Save alerts. */
const SHOP_PAGE = `<!doctype html><title>shop</title>
<form id="order"><select id="item"><option>Widget</option><option>Gadget</option></select>
<button id="place" type="submit">Place order</button></form>
<button id="rename" type="button">Rename</button><button id="save" type="button">Save</button>
<button id="plain" type="button">Plain</button>
<button id="later" type="button">Delete later</button>
<p id="result">Nothing yet</p>
<script>
  const result = document.getElementById('result');
  document.getElementById('order').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!confirm('Place order?')) return;
    result.textContent = 'Order placed';
  });
  document.getElementById('rename').addEventListener('click', () => {
    const name = prompt('New name?', 'Widget');
    if (name) result.textContent = 'Renamed to ' + name;
  });
  document.getElementById('save').addEventListener('click', () => alert('Item has been updated.'));
  // Real apps often ask only after a request came back.
  document.getElementById('later').addEventListener('click', () =>
    setTimeout(() => { if (confirm('Delete 3 items?')) result.textContent = 'Deleted'; }, 300));
  document.getElementById('plain').addEventListener('click', () => (result.textContent = 'Clicked'));
</script>`;

let site: FlowPage;
let base: string;
let page: FlowPage['page'];

beforeAll(async () => {
  site = await openFlowPage((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(SHOP_PAGE);
  });
  ({ base, page } = site);
});

afterAll(async () => {
  await site?.close();
});

const clickFlow = (selector: string): FlowAction[] => [
  { sequence: 10, type: 'NAVIGATE', options: { text: `${base}/shop` } },
  { sequence: 20, type: 'CLICK', target: css(selector), options: {} },
  { sequence: 30, type: 'GET_TEXT', target: css('#result'), options: {} },
];

describe('JavaScript dialogs in a flow', () => {
  it.each([
    ['#place', "The page asked: 'Place order?' — no answer was recorded"],
    ['#rename', "The page asked: 'New name?' — no answer was recorded"],
    ['#save', "The page asked: 'Item has been updated.' — no answer was recorded"],
  ])(
    'fails the step whose click opened a dialog (%s) with its text, never SUCCESS',
    async (selector, message) => {
      const result = await runFlow(page, clickFlow(selector), hooks, {
        ...fast,
        navigationPolicy: LOCAL,
      });
      expect(result.status).toBe('ERROR');
      expect(result.error).toMatchObject({
        code: AUTOMATION_CODES.UNEXPECTED_ALERT_OPEN,
        originalMessage: message,
        sequence: 20,
      });
      expect(result.steps.map((step) => [step.sequence, step.status])).toEqual([
        [10, 'SUCCESS'],
        [20, 'ERROR'],
      ]);
      // Dismissed, so the page did not do what the dialog guarded; and it did not hang on it.
      expect(await page.textContent('#result')).toBe('Nothing yet');
    },
  );

  it('leaves a flow without dialogs alone, on the same page after a dialog failed one', async () => {
    await runFlow(page, clickFlow('#place'), hooks, { ...fast, navigationPolicy: LOCAL });
    const result = await runFlow(page, clickFlow('#plain'), hooks, { ...fast, navigationPolicy: LOCAL });
    expect(result.status).toBe('SUCCESS');
    expect(result.values[30]).toEqual({ kind: 'text', value: 'Clicked' });
  });
});

const answer = (sequence: number, dialog: PageDialogAnswer): FlowAction => ({
  sequence,
  type: 'ANSWER_DIALOG',
  options: { dialog },
});

describe('recorded answers to JavaScript dialogs', () => {
  const run = (actions: FlowAction[], withHooks: FlowHooks = hooks) =>
    runFlow(page, actions, withHooks, { ...fast, navigationPolicy: LOCAL });

  it('accepts a confirm() with the recorded OK: the order is placed and the step reads the question', async () => {
    const [navigate, click, read] = clickFlow('#place') as [FlowAction, FlowAction, FlowAction];
    const result = await run([
      navigate,
      click,
      answer(21, { type: 'confirm', message: 'Place order?', accept: true }),
      read,
    ]);
    expect(result.status).toBe('SUCCESS');
    expect(result.values[21]).toEqual({ kind: 'text', value: 'Place order?' });
    expect(result.values[30]).toEqual({ kind: 'text', value: 'Order placed' });
  });

  it('gives a recorded Cancel, and a prompt() its recorded text', async () => {
    const [navigate, , read] = clickFlow('#place') as [FlowAction, FlowAction, FlowAction];
    const cancelled = await run([
      navigate,
      { sequence: 20, type: 'CLICK', target: css('#place'), options: {} },
      answer(21, { type: 'confirm', message: 'Place order?', accept: false }),
      read,
    ]);
    expect(cancelled.status).toBe('SUCCESS');
    expect(cancelled.values[30]).toEqual({ kind: 'text', value: 'Nothing yet' });

    const renamed = await run([
      navigate,
      { sequence: 20, type: 'CLICK', target: css('#rename'), options: {} },
      answer(21, {
        type: 'prompt',
        message: 'New name?',
        defaultValue: 'Widget',
        accept: true,
        promptText: 'Gizmo',
      }),
      read,
    ]);
    expect(renamed.values[30]).toEqual({ kind: 'text', value: 'Renamed to Gizmo' });
  });

  it('waits for a dialog the page opens after the click returned', async () => {
    const [navigate, , read] = clickFlow('#later') as [FlowAction, FlowAction, FlowAction];
    const result = await run([
      navigate,
      { sequence: 20, type: 'CLICK', target: css('#later'), options: {} },
      answer(21, { type: 'confirm', message: 'Delete 3 items?', accept: true }),
      { sequence: 25, type: 'WAIT_UNTIL_EXISTS', target: css('#result'), options: {} },
      read,
    ]);
    expect(result.status).toBe('SUCCESS');
    expect(result.values[30]).toEqual({ kind: 'text', value: 'Deleted' });
  });

  it('fails an answer whose dialog never opened (No Alert Open), naming the question', async () => {
    const [navigate, , read] = clickFlow('#plain') as [FlowAction, FlowAction, FlowAction];
    const result = await runFlow(
      page,
      [
        navigate,
        { sequence: 20, type: 'CLICK', target: css('#plain'), options: {} },
        {
          ...answer(21, { type: 'confirm', message: 'Place order?', accept: true }),
          options: { timeoutMs: 500, dialog: { type: 'confirm', message: 'Place order?', accept: true } },
        },
        read,
      ],
      hooks,
      { ...fast, navigationPolicy: LOCAL },
    );
    expect(result.status).toBe('ERROR');
    expect(result.error).toMatchObject({
      code: AUTOMATION_CODES.NO_ALERT_OPEN,
      originalMessage: "The page did not ask 'Place order?' within 1 s",
      sequence: 21,
    });
  });

  it('asks the operator while recording, gives the answer, and reports it with the step', async () => {
    const asked: string[] = [];
    const recording: FlowHooks = {
      ...hooks,
      onDialog: (dialog) => {
        asked.push(`${dialog.type}: ${dialog.message}`);
        return Promise.resolve({ accept: true, promptText: 'Sprocket' });
      },
    };
    await run([clickFlow('#rename')[0] as FlowAction]);
    const result = await run(
      [{ sequence: 20, type: 'CLICK', target: css('#rename'), options: {} }],
      recording,
    );
    expect(result.status).toBe('SUCCESS');
    expect(asked).toEqual(['prompt: New name?']);
    expect(result.steps[0]?.dialogs).toEqual([
      { type: 'prompt', message: 'New name?', defaultValue: 'Widget', accept: true, promptText: 'Sprocket' },
    ]);
    expect(await page.textContent('#result')).toBe('Renamed to Sprocket');

    // The operator gave no answer (closed the builder): dismissed, and the step fails with the text.
    const unanswered = await run([{ sequence: 20, type: 'CLICK', target: css('#place'), options: {} }], {
      ...hooks,
      onDialog: () => Promise.resolve(undefined),
    });
    expect(unanswered.error?.originalMessage).toBe("The page asked: 'Place order?' — no answer was recorded");
  });
});
