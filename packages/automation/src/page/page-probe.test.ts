import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type { ElementAtPoint, PageElementArea } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../../../../tests/fixtures/site/server.js';
import { chromiumLaunchOptions } from '../chromium.js';
import { elementAtPoint } from './element-at-point.js';
import { locatorFor } from './fallback-locators.js';
import { pageElementAreas } from './normalized-page.js';
import { runFlow } from '../flow/run-flow.js';

/**
 * The page probe on pages nobody here wrote: a login form whose controls shadow the form's own
 * properties (DokuWiki's has <input name="id">). The element areas and element-at-point describe
 * an element with one selector builder, so both must give the same selector, and it must find
 * exactly that element.
 */

let site: FixtureSite;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [site, browser] = await Promise.all([
    startFixtureSite(),
    chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH)),
  ]);
  page = await browser.newPage({ viewport: { width: 1280, height: 1200 } });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const CLOBBERING_NAMES = [
  'id',
  'name',
  'action',
  'attributes',
  'children',
  'tagName',
  'parentNode',
  'localName',
  'nodeType',
  'childNodes',
  'textContent',
  'querySelectorAll',
  'getBoundingClientRect',
  'closest',
  'onclick',
];

/** What document.querySelectorAll finds for each selector: 'name=<name>', '<tag>', 'count <n>' or 'invalid'. */
async function resolveInDocument(selectors: readonly string[]): Promise<string[]> {
  return page.evaluate((list) => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called on each element with .call
    const getAttribute = Element.prototype.getAttribute;
    return list.map((selector) => {
      try {
        const found = document.querySelectorAll(selector);
        const [only] = found;
        if (found.length !== 1 || !only) return `count ${found.length}`;
        const name = getAttribute.call(only, 'name');
        return name === null ? only.localName : `name=${name}`;
      } catch {
        return 'invalid';
      }
    });
  }, selectors);
}

async function recordAt(expected: Locator): Promise<ElementAtPoint> {
  const box = await expected.boundingBox();
  if (!box) throw new Error('expected element has no box');
  const recorded = await elementAtPoint(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
  if (!recorded) throw new Error('nothing at the point');
  return recorded;
}

async function isSameElement(candidate: Locator, expected: Locator): Promise<boolean> {
  await expected.evaluate((el) => {
    (window as unknown as { pwExpected?: Element }).pwExpected = el;
  });
  return candidate.evaluate((el) => (window as unknown as { pwExpected?: Element }).pwExpected === el);
}

describe('a form whose controls clobber its properties', () => {
  const loginPage = async (): Promise<PageElementArea[]> => {
    await page.goto(`${site.url}/pages/clobbering.html`);
    return pageElementAreas(page);
  };

  it('lists every control with a selector that finds exactly it', async () => {
    const areas = await loginPage();
    for (const area of areas) expect(area.selector).not.toContain('[object');
    expect(areas.find((area) => area.tagName === 'form')?.selector).toBe('#dw__login');

    const controls = areas.filter((area) => area.tagName === 'input' || area.tagName === 'button');
    const resolved = await resolveInDocument(controls.map((area) => area.selector));
    expect(resolved).toEqual([...CLOBBERING_NAMES.map((name) => `name=${name}`), 'button']);
    for (const area of controls) expect(await page.locator(`css=${area.selector}`).count()).toBe(1);

    const byXpath = await page.evaluate(
      (xpaths) =>
        xpaths.map(
          (xpath) =>
            document.evaluate(xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE).snapshotLength,
        ),
      controls.map((area) => area.xpath),
    );
    expect(byXpath).toEqual(controls.map(() => 1));
  });

  it('picks each control with the same selector the areas give, and fallbacks that find it', async () => {
    const areas = await loginPage();
    const targets: Array<[string, Locator]> = [
      ...CLOBBERING_NAMES.map((name): [string, Locator] => [
        `name=${name}`,
        page.locator(`input[name="${name}"]`),
      ]),
      ['button', page.locator('form button')],
    ];
    for (const [description, expected] of targets) {
      const recorded = await recordAt(expected);
      expect(recorded.selectorValue, description).not.toContain('[object');
      expect(await resolveInDocument([recorded.selectorValue]), description).toEqual([description]);
      expect(
        areas.map((area) => area.selector),
        description,
      ).toContain(recorded.selectorValue);
      for (const fallback of recorded.fallbackLocators) {
        const candidate = locatorFor(page, fallback);
        expect(await candidate.count(), JSON.stringify(fallback)).toBe(1);
        expect(await isSameElement(candidate, expected), JSON.stringify(fallback)).toBe(true);
      }
    }
    const button = await recordAt(page.locator('form button'));
    expect(button.fallbackLocators).toContainEqual({ kind: 'role', role: 'button', name: 'Log In' });
    expect(button.xpathValue).toBe('/html/body/form/div/fieldset/button');
  });
});

describe('elements inside open shadow roots', () => {
  const panelPage = async (): Promise<PageElementArea[]> => {
    await page.goto(`${site.url}/pages/shadow-widgets.html`);
    return pageElementAreas(page);
  };
  const inPanel = (selector: string): Locator => page.locator('account-panel').locator(`css=${selector}`);

  it('lists them in the areas, with selectors that find exactly them and parents that hold them', async () => {
    const areas = await panelPage();
    const host = areas.find((area) => area.tagName === 'account-panel');
    const button = areas.find((area) => area.tagName === 'button');
    const table = areas.find((area) => area.tagName === 'table');
    const badge = areas.find((area) => area.tagName === 'span' && area.textContent === 'Active');
    if (!host || !button || !table || !badge) throw new Error('shadow elements missing from the areas');
    expect(areas.filter((area) => area.tagName === 'tr')).toHaveLength(4);
    expect(areas.filter((area) => area.tagName === 'td').map((area) => area.textContent)).toEqual([
      'Checking',
      '$1,200.00',
      'Savings',
      '$5,300.50',
      'Brokerage',
      '$980.25',
    ]);
    expect(areas.find((area) => area.tagName === 'style')).toBeUndefined();

    const byId = new Map(areas.map((area) => [area.id, area]));
    const ancestorsOf = (area: PageElementArea): string[] => {
      const tags: string[] = [];
      for (let at = byId.get(area.parentId ?? -1); at; at = byId.get(at.parentId ?? -1))
        tags.push(at.tagName);
      return tags;
    };
    expect(ancestorsOf(button).slice(0, 2)).toEqual(['div', 'account-panel']);
    expect(ancestorsOf(badge).slice(0, 3)).toEqual(['status-badge', 'div', 'account-panel']);
    expect(areas.map((area) => area.id)).toEqual(areas.map((_, index) => index));
    for (const area of areas) if (area.parentId !== null) expect(area.parentId).toBeLessThan(area.id);

    const shadowAreas = areas.filter((area) => ancestorsOf(area).includes('account-panel'));
    for (const area of shadowAreas) {
      expect(area.selector.startsWith(`${host.selector} > `), area.selector).toBe(true);
      expect(area.xpath).toBe('');
      expect(await page.locator(`css=${area.selector}`).count(), area.selector).toBe(1);
    }
    const expected: Array<[PageElementArea, Locator]> = [
      [button, inPanel('button')],
      [table, inPanel('table')],
      [badge, page.locator('status-badge').locator('css=span')],
    ];
    for (const [area, locator] of expected) {
      expect(await isSameElement(page.locator(`css=${area.selector}`), locator), area.selector).toBe(true);
      // Picking by point gives the selector the areas outline.
      expect((await recordAt(locator)).selectorValue).toBe(area.selector);
    }
    expect(button.selector).toBe('html > body > account-panel > div > button');
  });

  it('clicks the shadow button and reads the shadow table with the selectors the areas give, in a real run', async () => {
    const areas = await panelPage();
    const button = areas.find((area) => area.tagName === 'button');
    const table = areas.find((area) => area.tagName === 'table');
    const firstRow = areas.find((area) => area.tagName === 'tr' && area.selector.includes('tbody'));
    const cells = areas.filter((area) => area.tagName === 'td' && area.parentId === firstRow?.id);
    if (!button || !table || !firstRow || cells.length !== 2) throw new Error('shadow areas missing');
    // The table panel's rule: a row or cell selector is its area's selector relative to the table's
    // (or the row's), the picked row's position dropped.
    const relative = (outer: PageElementArea, inner: PageElementArea): string =>
      inner.selector.slice(`${outer.selector} > `.length);
    const rowSelector = relative(table, firstRow).replace(/:nth-of-type\(\d+\)$/, '');
    expect(rowSelector).toBe('tbody > tr');

    const result = await runFlow(
      page,
      [
        {
          sequence: 10,
          type: 'CLICK',
          target: {
            selectorType: 'CSS',
            selectorValue: button.selector,
            framePath: [],
            fallbackLocators: [],
          },
          options: {},
        },
        {
          sequence: 20,
          type: 'GET_TABLE',
          options: {
            table: {
              name: 'accounts',
              tableSelector: table.selector,
              rowSelector,
              maxPages: 1,
              columns: cells.map((cell, index) => ({
                label: `column ${index + 1}`,
                selector: relative(firstRow, cell),
                type: 'TEXT' as const,
              })),
            },
          },
        },
      ],
      { ask: () => Promise.resolve('CANCELED') },
      {
        navigationPolicy: { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] },
        capturePageScreenshots: false,
        captureNormalizedHtml: false,
      },
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('SUCCESS');
    expect(await page.getByTestId('panel-result').textContent()).toBe('Refreshed');
    expect(result.values[20]).toMatchObject({
      kind: 'table',
      rows: [
        ['Checking', '$1,200.00'],
        ['Savings', '$5,300.50'],
        ['Brokerage', '$980.25'],
      ],
    });
  });
});
