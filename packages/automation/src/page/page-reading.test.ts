import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFlow } from '../flow/run-flow.js';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import type { ElementAtPoint } from '@pagewright/shared';
import { startFixtureSite, type FixtureSite } from '../../../../tests/fixtures/site/server.js';
import { chromiumLaunchOptions } from '../chromium.js';
import { elementAtPoint } from './element-at-point.js';
import { locatorFor } from './fallback-locators.js';
import { locateElement, locateElementWithSource } from './locate-element.js';
import { normalizedHtml, pageElementAreas } from './normalized-page.js';

let site: FixtureSite;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [site, browser] = await Promise.all([
    startFixtureSite(),
    chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH)),
  ]);
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(name: string): Promise<void> {
  await page.goto(`${site.url}/pages/${name}`);
}

/** Records the element the way the live view does: element at the centre of its box. */
async function recordAt(expected: Locator): Promise<ElementAtPoint> {
  const box = await expected.boundingBox();
  if (!box) throw new Error('expected element has no box');
  const recorded = await elementAtPoint(page, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
  if (!recorded) throw new Error('nothing at the point');
  return recorded;
}

function scopeFor(framePath: readonly string[]): Page | FrameLocator {
  let scope: Page | FrameLocator = page;
  for (const selector of framePath) scope = scope.frameLocator(selector);
  return scope;
}

async function isSameElement(candidate: Locator, expected: Locator): Promise<boolean> {
  await expected.evaluate((el) => {
    (el.ownerDocument.defaultView as unknown as { pwExpected?: Element }).pwExpected = el;
  });
  return candidate.evaluate(
    (el) => (el.ownerDocument.defaultView as unknown as { pwExpected?: Element }).pwExpected === el,
  );
}

/** The recorded selector, the XPath and every fallback must each find exactly the recorded element. */
async function expectResolvesBack(recorded: ElementAtPoint, expected: Locator): Promise<void> {
  const scope = scopeFor(recorded.framePath);
  const candidates: Array<[string, Locator]> = [
    [`css ${recorded.selectorValue}`, scope.locator(`css=${recorded.selectorValue}`)],
  ];
  if (recorded.xpathValue)
    candidates.push([`xpath ${recorded.xpathValue}`, scope.locator(`xpath=${recorded.xpathValue}`)]);
  for (const fallback of recorded.fallbackLocators)
    candidates.push([JSON.stringify(fallback), locatorFor(scope, fallback)]);
  for (const [description, candidate] of candidates) {
    expect(await candidate.count(), description).toBe(1);
    expect(await isSameElement(candidate, expected), description).toBe(true);
  }
}

describe('elementAtPoint', () => {
  it('classifies the login form and gives selectors and fallbacks that find the same elements', async () => {
    await open('login.html');

    const username = await recordAt(page.getByTestId('login-username'));
    expect(username).toMatchObject({
      type: 'INPUTABLE_TEXT',
      tagName: 'input',
      selectorValue: '#username',
      framePath: [],
    });
    expect(username.xpathValue).toBe('/html/body/form/input[1]');
    expect(username.fallbackLocators.map((f) => f.kind)).toEqual([
      'testId',
      'id',
      'role',
      'label',
      'attributes',
      'css',
      'xpath',
    ]);
    expect(username.fallbackLocators[2]).toEqual({ kind: 'role', role: 'textbox', name: 'Username' });
    await expectResolvesBack(username, page.getByTestId('login-username'));

    const password = await recordAt(page.getByTestId('login-password'));
    expect(password).toMatchObject({ type: 'INPUTABLE_PASSWORD', selectorValue: '#password' });
    expect(password.fallbackLocators).toContainEqual({ kind: 'label', value: 'Password' });
    await expectResolvesBack(password, page.getByTestId('login-password'));

    const submit = await recordAt(page.getByTestId('login-submit'));
    expect(submit).toMatchObject({
      type: 'CLICKABLE',
      tagName: 'button',
      textContent: 'Sign in',
      isDownloadLink: false,
    });
    expect(submit.fallbackLocators).toContainEqual({ kind: 'role', role: 'button', name: 'Sign in' });
    expect(submit.fallbackLocators).toContainEqual({ kind: 'text', value: 'Sign in', tagName: 'button' });
    await expectResolvesBack(submit, page.getByTestId('login-submit'));

    const remember = await recordAt(page.locator('#remember'));
    expect(remember.type).toBe('CLICKABLE');
    await expectResolvesBack(remember, page.locator('#remember'));
  });

  it('classifies a select and marks statement links as downloads', async () => {
    await open('select.html');
    const plan = await recordAt(page.getByTestId('plan-select'));
    expect(plan).toMatchObject({ type: 'SELECT', tagName: 'select', selectorValue: '#plan' });
    expect(plan.selectOptions).toEqual([
      { label: 'Choose…', value: '' },
      { label: 'Basic', value: 'basic' },
      { label: 'Pro', value: 'pro' },
      { label: 'Enterprise', value: 'enterprise' },
    ]);
    await expectResolvesBack(plan, page.getByTestId('plan-select'));

    await open('table.html');
    const link = page.getByRole('link', { name: 'Statement 2', exact: true });
    const statement = await recordAt(link);
    expect(statement).toMatchObject({ type: 'CLICKABLE', tagName: 'a', isDownloadLink: true });
    await expectResolvesBack(statement, link);
  });

  it('enters a same-origin iframe and sets the frame path', async () => {
    await open('iframe.html');
    const email = page.frameLocator('#inner-frame').getByTestId('frame-email');
    await email.waitFor();
    const recorded = await recordAt(email);
    expect(recorded).toMatchObject({
      type: 'INPUTABLE_TEXT',
      framePath: ['#inner-frame'],
      selectorValue: '#email',
    });
    const box = await email.boundingBox();
    expect(recorded.box.x).toBeCloseTo(box?.x ?? Number.NaN, 0);
    expect(recorded.box.y).toBeCloseTo(box?.y ?? Number.NaN, 0);
    await expectResolvesBack(recorded, email);

    const message = page.frameLocator('#inner-frame').getByTestId('frame-message');
    const textarea = await recordAt(message);
    expect(textarea).toMatchObject({
      type: 'INPUTABLE_TEXT',
      tagName: 'textarea',
      framePath: ['#inner-frame'],
    });
    await expectResolvesBack(textarea, message);
  });

  it('enters an open shadow root and gives a selector that pierces it', async () => {
    await open('shadow.html');
    const input = page.getByPlaceholder('you@example.com');
    const recorded = await recordAt(input);
    expect(recorded).toMatchObject({ type: 'INPUTABLE_TEXT', tagName: 'input', framePath: [] });
    expect(recorded.selectorValue).toBe('input[name="email"]');
    expect(recorded.xpathValue).toBeUndefined();
    expect(recorded.fallbackLocators).toContainEqual({ kind: 'label', value: 'Newsletter email' });
    await expectResolvesBack(recorded, input);

    const button = page.getByRole('button', { name: 'Subscribe' });
    const subscribe = await recordAt(button);
    expect(subscribe).toMatchObject({ type: 'CLICKABLE', tagName: 'button' });
    await expectResolvesBack(subscribe, button);
  });

  it('knows the fields of a server-rendered form by their unique names, not their place in a layout table', async () => {
    await open('admin-login.html');
    const selectorAt = async (locator: Locator) => (await recordAt(locator)).selectorValue;
    expect(await selectorAt(page.locator('select').first())).toBe('select[name="auth[driver]"]');
    expect(await selectorAt(page.getByPlaceholder('localhost'))).toBe('input[name="auth[server]"]');
    // An id still wins; a name several radios share says nothing: their place does.
    expect(await selectorAt(page.locator('#username'))).toBe('#username');
    const write = page.getByRole('radio', { name: 'Write' });
    const recorded = await recordAt(write);
    expect(recorded.selectorValue).toMatch(/label:nth-of-type\(2\) > input$/);
    await expectResolvesBack(recorded, write);
    await expectResolvesBack(
      await recordAt(page.getByPlaceholder('localhost')),
      page.getByPlaceholder('localhost'),
    );
  });

  it('records an icon inside a button or link as the button or link, named as people read it', async () => {
    await open('icon-buttons.html');
    const newTiddler = await recordAt(page.locator('#new-tiddler path'));
    expect(newTiddler).toMatchObject({ tagName: 'button', selectorValue: '#new-tiddler', type: 'CLICKABLE' });
    expect(newTiddler.fallbackLocators).toContainEqual({ kind: 'role', role: 'button', name: 'New tiddler' });
    await expectResolvesBack(newTiddler, page.getByRole('button', { name: 'New tiddler' }));

    const remove = await recordAt(page.getByTitle('Delete').locator('path'));
    expect(remove.tagName).toBe('button');
    expect(remove.selectorValue).not.toMatch(/svg|path/);
    expect(remove.fallbackLocators).toContainEqual({ kind: 'role', role: 'button', name: 'Delete' });

    const settings = await recordAt(page.locator('.icon-gear'));
    expect(settings.tagName).toBe('a');
    expect(settings.fallbackLocators).toContainEqual({ kind: 'role', role: 'link', name: 'Settings' });
  });

  it('continues into a cross-origin iframe with one more evaluate', async () => {
    await open('cross-origin-iframe.html');
    const email = page.frameLocator('#other-origin-frame').getByTestId('frame-email');
    await email.waitFor();
    const recorded = await recordAt(email);
    expect(recorded).toMatchObject({
      type: 'INPUTABLE_TEXT',
      framePath: ['#other-origin-frame'],
      selectorValue: '#email',
    });
    // Playwright's boundingBox leaves out the iframe border for out-of-process frames, so the box is
    // checked by clicking just inside its corners instead.
    const { x, y, width, height } = recorded.box;
    for (const [cornerX, cornerY] of [
      [x + 1, y + 1],
      [x + width - 1, y + height - 1],
    ] as const) {
      await email.evaluate((el) => el.blur());
      await page.mouse.click(cornerX, cornerY);
      expect(await email.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    }
    await expectResolvesBack(recorded, email);
  });

  it('returns null outside the viewport', async () => {
    await open('login.html');
    expect(await elementAtPoint(page, { x: -10, y: -10 })).toBeNull();
  });
});

describe('locateElementWithSource', () => {
  it('finds login fields recorded on login.html on changed-ids.html through fallbacks', async () => {
    await open('login.html');
    const targets = {
      username: await recordAt(page.getByTestId('login-username')),
      password: await recordAt(page.getByTestId('login-password')),
      submit: await recordAt(page.getByTestId('login-submit')),
    };
    const onLoginPage = await locateElementWithSource(page, targets.username, { timeoutMs: 1_000 });
    expect(onLoginPage?.matchedBy).toBe('recorded');

    await open('changed-ids.html');
    const username = await locateElementWithSource(page, targets.username, { timeoutMs: 2_000 });
    const password = await locateElementWithSource(page, targets.password, { timeoutMs: 2_000 });
    const submit = await locateElement(page, targets.submit, { timeoutMs: 2_000 });
    expect(username?.matchedBy).toBe('testId');
    expect(password?.matchedBy).toBe('testId');
    if (!username || !password || !submit) throw new Error('fallbacks did not find the login form');
    expect(await username.locator.getAttribute('id')).toBe('u-4c2');

    await username.locator.fill('ada');
    await password.locator.fill('secret123');
    await submit.click();
    await expect.poll(() => page.getByTestId('welcome').textContent()).toBe('Welcome, ada');

    // A run says which step a fallback found, with the selector the element has now.
    const result = await runFlow(
      page,
      [
        { sequence: 10, type: 'NAVIGATE', options: { text: `${site.url}/pages/changed-ids.html` } },
        { sequence: 20, type: 'TYPE_TEXT', target: targets.username, options: { text: 'ada' } },
      ],
      { ask: () => Promise.resolve('') },
      {
        navigationPolicy: { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] },
        capturePageScreenshots: false,
        captureElementScreenshots: false,
        captureNormalizedHtml: false,
      },
    );
    expect(result.status).toBe('SUCCESS');
    expect(result.steps[0]?.locatedBy).toBeUndefined();
    expect(result.steps[1]?.locatedBy).toMatchObject({
      fallback: { kind: 'testId', value: 'login-username' },
      selectorValue: '#u-4c2',
    });
    expect(await page.locator('#u-4c2').inputValue()).toBe('ada');
    // The marker the probe reads is gone again.
    expect(await page.locator('[data-pagewright-located]').count()).toBe(0);
  });

  it('skips a fallback that matches several elements and gives up at the timeout', async () => {
    await open('changed-ids.html');
    const target = {
      selectorType: 'CSS' as const,
      selectorValue: '#gone',
      framePath: [],
      fallbackLocators: [
        { kind: 'css' as const, value: 'input' },
        { kind: 'label' as const, value: 'Password' },
      ],
    };
    const found = await locateElementWithSource(page, target, { timeoutMs: 1_000 });
    expect(found?.matchedBy).toBe('label');
    expect(await found?.locator.getAttribute('id')).toBe('p-9d7');

    const startedAt = Date.now();
    const missing = await locateElement(
      page,
      { ...target, fallbackLocators: [{ kind: 'id', value: 'nope' }] },
      { timeoutMs: 300 },
    );
    expect(missing).toBeNull();
    expect(Date.now() - startedAt).toBeLessThan(1_500);
  });

  it('waits for an element that appears later', async () => {
    await open('delayed.html');
    const found = await locateElementWithSource(
      page,
      { selectorType: 'CSS', selectorValue: '#loaded-message', framePath: [], fallbackLocators: [] },
      { timeoutMs: 5_000 },
    );
    expect(found?.matchedBy).toBe('recorded');
  });
});

describe('normalized page', () => {
  it('lists the visible table rows with their statement links', async () => {
    await open('table.html');
    const areas = await pageElementAreas(page);
    expect(areas.map((area) => area.id)).toEqual(areas.map((_, index) => index));
    for (const area of areas) {
      expect(area.width).toBeGreaterThan(0);
      expect(area.height).toBeGreaterThan(0);
      if (area.parentId !== null) expect(area.parentId).toBeLessThan(area.id);
      expect(['script', 'style', 'head']).not.toContain(area.tagName);
    }

    const rows = areas.filter((area) => area.tagName === 'tr');
    expect(rows).toHaveLength(6);
    expect(rows.map((row) => row.containsHref)).toEqual([false, true, true, true, true, true]);
    const links = areas.filter((area) => area.tagName === 'a');
    expect(links).toHaveLength(5);
    expect(links.every((link) => link.containsHref && link.hasText)).toBe(true);
    expect(links[0]?.textContent).toBe('Statement 1');

    const alice = areas.find((area) => area.textContent === 'Alice Martin');
    if (!alice) throw new Error('Alice Martin cell missing');
    expect(alice).toMatchObject({ tagName: 'td', hasText: true, containsHref: false });
    expect(areas[alice.parentId ?? -1]?.tagName).toBe('tr');
    expect(await page.locator(`css=${alice.selector}`).textContent()).toBe('Alice Martin');
    expect(await page.locator(`xpath=${alice.xpath}`).textContent()).toBe('Alice Martin');
    const bodyRow = rows[1];
    expect(await page.locator(`css=${bodyRow?.selector}`).count()).toBe(1);
  });

  it('strips scripts, styles, comments and inline handlers from the HTML', async () => {
    await open('table.html');
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', '<!-- note --><button onclick="alert(1)">X</button>');
    });
    const html = await normalizedHtml(page);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('Alice Martin');
    expect(html).not.toMatch(/<script|<style|onclick|<!--/i);
  });
});

describe('fixture site', () => {
  it('serves downloads as attachments and rejects a wrong password', async () => {
    const pdf = await fetch(`${site.url}/files/statement-3.pdf`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe('attachment; filename="statement-3.pdf"');
    const pdfText = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(pdfText.startsWith('%PDF-1.4')).toBe(true);
    expect(pdfText.trimEnd().endsWith('%%EOF')).toBe(true);

    const csv = await fetch(`${site.url}/files/report.csv`);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="report.csv"');
    expect(await csv.text()).toMatch(/^name,amount,date\n/);

    const failed = await fetch(`${site.url}/welcome`, {
      method: 'POST',
      body: new URLSearchParams({ username: 'ada', password: 'wrong' }),
    });
    expect(failed.status).toBe(401);
    expect(await failed.text()).toContain('Password or username incorrect');
    expect((await fetch(`${site.url}/pages/..%2Fserver.ts`)).status).toBe(404);
  });

  it('filters the search list and pages through the table', async () => {
    await open('search.html');
    await page.getByTestId('search-input').fill('ap');
    await page.getByTestId('search-button').click();
    expect(await page.getByTestId('result-count').textContent()).toBe('3 results');

    await open('table.html');
    await page.getByTestId('next-page').click();
    await page.getByTestId('next-page').click();
    expect(await page.getByTestId('page-indicator').textContent()).toBe('Page 3 of 3');
    expect(await page.getByTestId('next-page').isDisabled()).toBe(true);
    expect(await page.locator('#statement-rows tr').count()).toBe(5);
    expect(await page.locator('#statement-rows tr td').first().textContent()).toBe('Kira Sato');
  });
});
