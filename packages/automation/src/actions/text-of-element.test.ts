import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession } from 'playwright-core';
import { type FlowPage, openFlowPage } from '../test/flow-page.js';
import { textOfElement } from './element-actions.js';

/** What GET_TEXT / GET_NUMBER / GET_DATE read, on the kinds of element real pages give them. */

const PAGE = `<!doctype html><html><body>
  <h1 id="title">Invoice <b>42</b><span style="display:none"> hidden</span></h1>
  <input id="amount" value="  1,234.50 ">
  <textarea id="note">two
lines</textarea>
  <select id="currency"><option value="usd">Dollar</option><option value="eur" selected>Euro</option></select>
  <label id="amount-label" for="amount">Amount</label>
  <svg width="80" height="20"><text id="chart-label" x="0" y="15">Q3 total</text></svg>
  <div id="host"></div>
  <iframe id="frame" srcdoc="<p id='inner'>In a frame</p>"></iframe>
  <table><tr><td id="val[&amp;where%5Bid%5D=1][name]">Ada Lovelace</td><td><form method="post"><input name="fields[name]" value="Grace Hopper"></form></td></tr></table>
  <form id="order"><input name="namespaceURI" value="x"><input name="textContent" value="y">Order <i>7</i></form>
  <script>
    document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML = '<span id="shadowed">In a shadow root</span>';
  </script>
</body></html>`;

let site: FlowPage;

beforeAll(async () => {
  site = await openFlowPage((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(PAGE);
  });
});

afterAll(async () => {
  await site?.close();
});

/** Counts the execution contexts Chromium makes: a main-world Playwright evaluate adds none, but its injected script is compiled there. */
async function mainWorldScripts(cdp: CDPSession, read: () => Promise<unknown>): Promise<number> {
  let compiled = 0;
  const onParsed = (event: { url?: string; executionContextAuxData?: { isDefault?: boolean } }): void => {
    if (event.executionContextAuxData?.isDefault) compiled++;
  };
  cdp.on('Debugger.scriptParsed', onParsed);
  try {
    await read();
  } finally {
    cdp.off('Debugger.scriptParsed', onParsed);
  }
  return compiled;
}

describe('textOfElement', () => {
  it('reads text as shown, field values, SVG text, shadow roots and frames, trimmed', async () => {
    const { page } = site;
    await page.goto(site.base);
    const read = (selector: string): Promise<string> => textOfElement(page.locator(selector), 2_000);
    expect(await read('#title')).toBe('Invoice 42');
    expect(await read('#amount')).toBe('1,234.50');
    expect(await read('#note')).toBe('two\nlines');
    expect(await read('#currency')).toBe('eur');
    // A label is read as the words it shows, not as the field it names.
    expect(await read('#amount-label')).toBe('Amount');
    expect(await read('#chart-label')).toBe('Q3 total');
    expect(await read('#shadowed')).toBe('In a shadow root');
    // Shaped on Adminer: a cell whose id is its row's query, and a field of an edit form.
    expect(await read('#val\\[\\&where\\%5Bid\\%5D\\=1\\]\\[name\\]')).toBe('Ada Lovelace');
    expect(await read('input[name="fields[name]"]')).toBe('Grace Hopper');
    expect(await textOfElement(page.frameLocator('#frame').locator('#inner'), 2_000)).toBe('In a frame');
  });

  it('reads a form whose fields shadow the properties a read uses, as its shown text', async () => {
    const { page } = site;
    await page.goto(site.base);
    expect(await textOfElement(page.locator('#order'), 2_000)).toBe('Order 7');
  });

  it("does not compile Playwright's script in the page's own world to read a text or a field", async () => {
    const { page } = site;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Debugger.enable');
    try {
      await page.goto(site.base);
      await page.locator('#title').count(); // the locate step's call, in the utility world
      expect(await mainWorldScripts(cdp, () => textOfElement(page.locator('#title'), 2_000))).toBe(0);
      expect(await mainWorldScripts(cdp, () => textOfElement(page.locator('#amount'), 2_000))).toBe(0);
      // The oracle can fail: a main-world evaluate on a fresh document does compile there.
      await page.goto(site.base);
      await page.locator('#title').count();
      expect(
        await mainWorldScripts(cdp, () => page.locator('#title').evaluate((element) => element.textContent)),
      ).toBeGreaterThan(0);
    } finally {
      await cdp.detach();
    }
  });
});
