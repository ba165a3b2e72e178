import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { MESSAGES } from '@pagewright/shared';
import { createConfirmedUser } from '../support/accounts.js';
import { statementPdf, statementValues, templateBoxes } from '../support/statement-pdfs.js';
import { apiUrl, mailUrl } from './builder-page.js';
import { expect, openSignedIn, test } from './fixtures.js';

/**
 * Statement recognition end to end (issue 15): a template is created, its sample PDF uploaded and
 * drawn into pages, two boxes drawn with the mouse on the first page and saved; then five
 * statements are processed, the consolidated results opened and the CSV downloaded. The annotation
 * editor's zoom, move and undo are checked here too, as they need a browser that lays pages out.
 */

type Point = { x: number; y: number };

const toast = (page: Page, text: string) => page.getByTestId('toast').filter({ hasText: text });

/** A new user, signed in through the UI, on the Template settings page. */
async function openTemplateSettings(page: Page, label: string) {
  const user = await createConfirmedUser(apiUrl(), mailUrl(), label);
  await openSignedIn(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page
    .getByTestId('panel-statement-recognition')
    .getByRole('button', { name: 'Template settings' })
    .click();
  await expect(page).toHaveURL(/\/statement-recognition-new\/template-settings$/);
}

/** Uploads statement 0 as the open template's sample; its first page then shows in the editor. */
async function uploadSample(page: Page) {
  await page.getByTestId('pdf-input').setInputFiles({
    name: 'sample.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from(await statementPdf(statementValues(0))),
  });
  await expect(page.getByTestId('annotation-canvas')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Page 1 \(1 of 2\)/u)).toBeVisible();
}

/** Presses the mouse at one screen point and releases it at another, moving through the way. */
async function dragMouse(page: Page, from: Point, to: Point) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
}

/** Drags a box on the editor's canvas where `templateBoxes(0)[index]` is (page fractions). */
async function drawBox(page: Page, index: number) {
  const box = templateBoxes(0)[index];
  const canvas = page.getByTestId('annotation-canvas');
  const area = await canvas.boundingBox();
  if (!box || !area) throw new Error('no canvas');
  await dragMouse(
    page,
    { x: area.x + box.x * area.width, y: area.y + box.y * area.height },
    { x: area.x + (box.x + box.w) * area.width, y: area.y + (box.y + box.h) * area.height },
  );
}

/**
 * Clicks a zoom button until the zoom level reads `limit`, then once more: the level stays there.
 * Each click is checked to change the level, so a button that does nothing fails here.
 */
async function zoomUntil(page: Page, button: 'Zoom in' | 'Zoom out', limit: string) {
  const level = page.getByTestId('zoom-level');
  const zoom = page.getByRole('button', { name: button, exact: true });
  for (let clicks = 0; (await level.textContent()) !== limit; clicks += 1) {
    expect(clicks, `${button} never reaches ${limit}`).toBeLessThan(30);
    const before = (await level.textContent()) ?? '';
    await zoom.click();
    await expect(level).not.toHaveText(before);
  }
  await zoom.click();
  await expect(level).toHaveText(limit);
}

/** The part of the editor's canvas on screen: the editor scrolls a page larger than its view. */
async function visibleCanvas(page: Page) {
  const canvas = page.getByTestId('annotation-canvas');
  const [area, view] = await Promise.all([canvas.boundingBox(), canvas.locator('..').boundingBox()]);
  const screen = page.viewportSize();
  if (!area || !view || !screen) throw new Error('no canvas');
  const left = Math.max(area.x, view.x, 0);
  const top = Math.max(area.y, view.y, 0);
  const right = Math.min(area.x + area.width, view.x + view.width, screen.width);
  const bottom = Math.min(area.y + area.height, view.y + view.height, screen.height);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Where the editor's `index`-th box is, in screen pixels from the canvas's top-left corner. */
async function boxOnCanvas(page: Page, index: number) {
  const [area, box] = await Promise.all([
    page.getByTestId('annotation-canvas').boundingBox(),
    page.getByTestId('annotation-box').nth(index).locator('rect').first().boundingBox(),
  ]);
  if (!area || !box) throw new Error('no box');
  return { x: box.x - area.x, y: box.y - area.y, width: box.width, height: box.height };
}

async function addClass(page: Page, label: string, type: 'TEXT' | 'CHECKBOX') {
  await page.getByRole('textbox', { name: 'Field name' }).fill(label);
  await page.getByRole('combobox', { name: 'Type', exact: true }).click();
  await page.getByRole('option', { name: type, exact: true }).click();
  await page.getByRole('button', { name: 'Add class' }).click();
}

test('a template drawn on its sample reads five statements into the consolidated results and CSV', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openTemplateSettings(page, 'recognition-e2e');

  // Add: an empty name is refused, then the new template's modal opens on the upload zone.
  await page.getByRole('button', { name: 'Add template' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(MESSAGES['template.name.required'])).toBeVisible();
  await page.getByRole('textbox', { name: 'Template name' }).fill('KYC e2e');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog', { name: 'KYC e2e' })).toBeVisible();
  await uploadSample(page);

  // Two boxes, each with its field: the account number (text) and the resident tick (checkbox).
  await addClass(page, 'Account number', 'TEXT');
  await page.getByRole('button', { name: 'Create box' }).click();
  await drawBox(page, 1);
  await addClass(page, 'Resident', 'CHECKBOX');
  await drawBox(page, 4);
  await expect(page.getByTestId('annotation-box')).toHaveCount(2);
  await expect(page.locator('[data-testid="annotation-box"][data-label="Resident"]')).toHaveCount(1);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, MESSAGES['template.mapping.added'])).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'KYC e2e' })).toContainText('2 pages, 2 boxes');

  // Five statements with the template.
  await page.goto('/statement-recognition-new');
  await page.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: 'KYC e2e' }).click();
  const statements = await Promise.all(
    [11, 12, 13, 14, 15].map(async (index) => ({
      name: `statement-${index}.pdf`,
      mimeType: 'application/pdf',
      buffer: Buffer.from(await statementPdf(statementValues(index))),
    })),
  );
  await page.getByTestId('pdf-input').setInputFiles(statements);
  await page.getByRole('button', { name: 'Process' }).click();
  await expect(page.getByTestId('recognition-result')).toHaveCount(5, { timeout: 60_000 });
  for (const index of [11, 12, 13, 14, 15]) {
    await expect(
      page.getByTestId('recognition-result').filter({ hasText: `statement-${index}.pdf` }),
    ).toContainText(`Account number: ${statementValues(index)['Account number']}`);
  }

  // The consolidated results: Filename, Page, Label, Value.
  await page.getByRole('button', { name: 'Show consolidated results' }).click();
  const table = page.getByRole('table', { name: 'Consolidated results' });
  await expect(table.getByRole('row')).toHaveCount(11);
  await expect(table).toContainText(statementValues(13)['Account number'] ?? '');
  await expect(table).toContainText(statementValues(13).Resident ?? '');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download consolidated' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('consolidated.csv');
  const csv = readFileSync(await file.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toBe('filename,page,label,value');
  expect(csv).toContain(`statement-14.pdf,1,Account number,${statementValues(14)['Account number']}`);
});

test('the annotation editor zooms between 5% and 200%, moves a box by dragging it and undoes only the last ten changes', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openTemplateSettings(page, 'annotation-e2e');
  await page.getByRole('button', { name: 'Add template' }).click();
  await page.getByRole('textbox', { name: 'Template name' }).fill('Editor e2e');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog', { name: 'Editor e2e' })).toBeVisible();
  await uploadSample(page);

  // Zoom: the canvas is laid out at the level shown, which stops at 200% and at 5%.
  const canvas = page.getByTestId('annotation-canvas');
  await expect(page.getByTestId('zoom-level')).toHaveText('100%');
  const fullWidth = (await canvas.boundingBox())?.width ?? 0;
  await zoomUntil(page, 'Zoom in', '200%');
  expect((await canvas.boundingBox())?.width).toBeCloseTo(2 * fullWidth, 0);
  await zoomUntil(page, 'Zoom out', '5%');
  expect((await canvas.boundingBox())?.width).toBeCloseTo(0.05 * fullWidth, 0);
  // Fit: the whole page in the editor's view, as wide or as tall as the view allows.
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await expect(page.getByTestId('zoom-level')).not.toHaveText('5%');
  const view = (await canvas.locator('..').boundingBox())!;
  const fitted = (await canvas.boundingBox())!;
  expect(fitted.width).toBeLessThanOrEqual(view.width + 1);
  expect(fitted.height).toBeLessThanOrEqual(view.height + 1);
  expect(Math.min(view.width - fitted.width, view.height - fitted.height)).toBeLessThan(20);
  // Ctrl+wheel zooms the picture, never the browser page.
  const fittedLevel = await page.getByTestId('zoom-level').textContent();
  await page.mouse.move(fitted.x + 20, fitted.y + 20);
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  await expect(page.getByTestId('zoom-level')).not.toHaveText(fittedLevel ?? '');
  expect(await page.evaluate(() => window.visualViewport?.scale ?? 1)).toBe(1);
  await page.getByRole('button', { name: 'Fit', exact: true }).click();

  // The class list grows as a class is added: the canvas is measured after, where it then stays.
  await addClass(page, 'Account number', 'TEXT');
  await page.getByRole('button', { name: 'Create box', exact: true }).click();
  // Twelve cells over the canvas on screen (four columns, three rows), one box drawn in each.
  const area = await visibleCanvas(page);
  const cell = { width: area.width / 4, height: area.height / 3 };
  const inCell = (index: number, x: number, y: number): Point => ({
    x: Math.round(area.x + ((index % 4) + x) * cell.width),
    y: Math.round(area.y + (Math.floor(index / 4) + y) * cell.height),
  });
  const drawInCell = (index: number) => dragMouse(page, inCell(index, 0.1, 0.1), inCell(index, 0.5, 0.5));
  const boxes = page.getByTestId('annotation-box');

  await drawInCell(0);
  await expect(boxes).toHaveCount(1);
  const drawn = await boxOnCanvas(page, 0);

  // Select, then drag the box by its middle: it lands where the mouse was released.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  const from = inCell(0, 0.3, 0.3);
  const to = inCell(0, 0.7, 0.6);
  await dragMouse(page, from, to);
  const moved = { x: drawn.x + to.x - from.x, y: drawn.y + to.y - from.y };
  await expect(async () => {
    const box = await boxOnCanvas(page, 0);
    // Within a pixel: the fitted zoom is a fraction, and the pointer moves by whole pixels.
    expect(Math.abs(box.x - moved.x)).toBeLessThan(1);
    expect(Math.abs(box.y - moved.y)).toBeLessThan(1);
    expect(Math.abs(box.width - drawn.width)).toBeLessThan(1);
  }).toPass();

  await page.getByRole('button', { name: 'Create box', exact: true }).click();
  for (let index = 1; index < 12; index += 1) await drawInCell(index);
  await expect(boxes).toHaveCount(12);

  // Thirteen changes (a box, its move, eleven boxes), ten kept: undo takes the last ten boxes away,
  // then has nothing left (the button turns disabled and Ctrl+Z changes nothing).
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  for (let index = 0; index < 10; index += 1) await undo.click();
  await expect(undo).toBeDisabled();
  await expect(boxes).toHaveCount(2);
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+z');
  await expect(boxes).toHaveCount(2);
  const kept = await boxOnCanvas(page, 0);
  expect(kept.x).toBeCloseTo(moved.x, 0);
  expect(kept.y).toBeCloseTo(moved.y, 0);
});

test('boxes drawn in turn each take the class chosen before them; Esc keeps the editor open', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openTemplateSettings(page, 'annotation-turns-e2e');
  await page.getByRole('button', { name: 'Add template' }).click();
  await page.getByRole('textbox', { name: 'Template name' }).fill('Five in a row');
  await page.getByRole('button', { name: 'Save' }).click();
  const editor = page.getByRole('dialog', { name: 'Five in a row' });
  await expect(editor).toBeVisible();
  await uploadSample(page);
  const labels = ['Holder', 'Account number', 'Address', 'Balance', 'Resident'];
  for (const label of labels) await addClass(page, label, label === 'Resident' ? 'CHECKBOX' : 'TEXT');
  await page.getByRole('button', { name: 'Create box', exact: true }).click();
  // Choose a class, draw its box; five times. Each box keeps the class chosen before it.
  for (const [index, label] of labels.entries()) {
    await page.getByRole('button', { name: `Class ${label}` }).click();
    await drawBox(page, index);
    await expect(page.getByTestId('annotation-box')).toHaveCount(index + 1);
  }
  for (const label of labels)
    await expect(page.locator(`[data-testid="annotation-box"][data-label="${label}"]`)).toHaveCount(1);

  // Esc is the select tool, not a way out: the work is still there.
  await page.keyboard.press('Escape');
  await expect(editor).toBeVisible();
  await expect(page.getByTestId('annotation-box')).toHaveCount(5);
  // Close asks before dropping unsaved work.
  await editor.getByRole('button', { name: 'Close', exact: true }).click();
  const ask = page.getByRole('dialog', { name: 'Close without saving?' });
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('annotation-box')).toHaveCount(5);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, MESSAGES['template.mapping.added'])).toBeVisible();
});
