import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type { ElementAtPoint, PageElementArea } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../../../../tests/fixtures/site/server.js';
import { chromiumLaunchOptions } from '../chromium.js';
import { elementAtPoint } from './element-at-point.js';
import { locatorFor } from './fallback-locators.js';
import { pageElementAreas } from './normalized-page.js';

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
