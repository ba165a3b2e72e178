/// <reference lib="dom" />
import type { Locator } from 'playwright-core';
import type { StepValue, TableColumn, TableDefinition } from '@pagewright/shared';
import { locateElement } from '../page/locate-element.js';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import { parseDate } from '../values/date-mask.js';
import { parseNumber } from '../values/number-mask.js';
import { fetchFileOfStep } from './get-file.js';
import {
  type ActionContext,
  type ActionOutcome,
  cssTarget,
  fail,
  requireElement,
  sleep,
} from './action-context.js';

type Cell = string | number | null;

/**
 * One page.evaluate per page of the table: the text (or link) of each column in each row. A row
 * in which no column's element exists (a header row of th cells, a separator) is not a data row
 * and is left out; a cell whose element exists but is empty stays, as an empty cell.
 */
async function readRows(rows: Locator, columns: readonly TableColumn[]): Promise<string[][]> {
  const specs = columns.map((column) => ({ selector: column.selector, isFile: column.type === 'FILE' }));
  const read = await rows.evaluateAll(
    (nodes: Element[], cellSpecs: { selector: string; isFile: boolean }[]) => {
      // Through the prototypes: a form's controls shadow its properties by name. No helper
      // functions here: runners with esbuild's keepNames wrap them in a __name the page lacks.
      /* eslint-disable @typescript-eslint/unbound-method -- each is called on a node with .call */
      const { querySelector, closest, getAttribute } = Element.prototype;
      const namespaceOf = Object.getOwnPropertyDescriptor(Element.prototype, 'namespaceURI')?.get;
      const innerTextOf = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'innerText')?.get;
      const textContentOf = Object.getOwnPropertyDescriptor(Node.prototype, 'textContent')?.get;
      const baseUriOf = Object.getOwnPropertyDescriptor(Node.prototype, 'baseURI')?.get;
      /* eslint-enable @typescript-eslint/unbound-method */
      return nodes.map((row) =>
        cellSpecs.map(({ selector, isFile }) => {
          const cell: Element | null = selector.trim() ? querySelector.call(row, selector) : row;
          if (!cell) return null;
          if (isFile) {
            const link: Element | null =
              closest.call(cell, 'a[href]') ??
              querySelector.call(cell, 'a[href]') ??
              (getAttribute.call(cell, 'href') === null ? null : cell);
            if (!link) return '';
            // The href property's value: the attribute resolved against the document base.
            const href = getAttribute.call(link, 'href') ?? '';
            try {
              return new URL(href, String(baseUriOf?.call(link))).href;
            } catch {
              return href;
            }
          }
          const isHtml = namespaceOf?.call(cell) === 'http://www.w3.org/1999/xhtml';
          const text: unknown = isHtml ? innerTextOf?.call(cell) : textContentOf?.call(cell);
          return (typeof text === 'string' ? text : '').trim();
        }),
      );
    },
    specs,
  );
  return read
    .filter((cells) => cells.some((cell) => cell !== null))
    .map((cells) => cells.map((cell) => cell ?? ''));
}

function typedCell(text: string, column: TableColumn): Cell {
  if (text === '') return null;
  if (column.type === 'NUMBER') return parseNumber(text, column.numberMask ?? {});
  if (column.type === 'DATETIME') {
    if (!column.dateMask)
      fail(AUTOMATION_CODES.INVALID_ARGUMENT, `Column "${column.label}" needs a date mask`);
    return parseDate(text, column.dateMask);
  }
  return text;
}

async function isUsable(element: Locator): Promise<boolean> {
  try {
    const isDisabled = await element.evaluate(
      (node: Element) => {
        // Through the prototype: a form's controls shadow its properties by name.
        // eslint-disable-next-line @typescript-eslint/unbound-method -- called on the node with .call
        const { getAttribute } = Element.prototype;
        return (
          getAttribute.call(node, 'disabled') !== null ||
          getAttribute.call(node, 'aria-disabled') === 'true' ||
          /(^|\s)disabled(\s|$)/u.test(getAttribute.call(node, 'class') ?? '')
        );
      },
      undefined,
      { timeout: 1_000 },
    );
    return !isDisabled && (await element.isVisible());
  } catch {
    return false;
  }
}

async function signatureOf(rows: Locator): Promise<string | null> {
  try {
    const texts = await rows.allInnerTexts();
    return texts.join('\u0001');
  } catch {
    // The page is navigating: no signature yet.
    return null;
  }
}

/** Clicks "next page" and waits until the rows change; false when there is no usable next page. */
async function goToNextPage(
  context: ActionContext,
  definition: TableDefinition,
  rowsLocator: () => Promise<Locator>,
): Promise<boolean> {
  if (!definition.nextPageSelector) return false;
  const next = await locateElement(context.page, cssTarget(context, definition.nextPageSelector), {
    timeoutMs: 500,
  });
  if (!next || !(await isUsable(next))) return false;
  const before = await signatureOf(await rowsLocator());
  await next.click({ timeout: context.limits.elementTimeoutMs });
  const deadline = Date.now() + context.limits.elementTimeoutMs;
  while (Date.now() < deadline) {
    await context.page
      .waitForLoadState('load', { timeout: context.limits.navigationTimeoutMs })
      .catch(() => undefined);
    const after = await signatureOf(await rowsLocator());
    if (after !== null && after !== before) return true;
    await sleep(100);
  }
  fail(
    AUTOMATION_CODES.TIMEOUT,
    `The table did not change within ${context.limits.elementTimeoutMs} ms after clicking the next page`,
  );
}

/**
 * GET_TABLE: reads the rows (rowSelector inside tableSelector) and their typed columns, then
 * follows nextPageSelector until it is missing or disabled or maxPages pages were read. FILE cells
 * hold the absolute URL of the cell's link; with hooks.keepFile each file is also fetched.
 */
export async function getTable(context: ActionContext): Promise<ActionOutcome> {
  const definition = context.action.options?.table;
  if (!definition) fail(AUTOMATION_CODES.INVALID_ARGUMENT, 'GET_TABLE needs options.table');
  const tableTarget = definition.tableSelector.trim()
    ? cssTarget(context, definition.tableSelector)
    : undefined;
  const locateTable = async (): Promise<Locator> =>
    tableTarget ? requireElement(context, tableTarget) : context.page.locator('html');
  const rowsLocator = async (): Promise<Locator> => (await locateTable()).locator(definition.rowSelector);

  const maxPages = definition.maxPages ?? 1;
  const rows: Cell[][] = [];
  let previousPage: string[] = [];
  for (let page = 1; ; page += 1) {
    const texts = await readRows(await rowsLocator(), definition.columns);
    // A "Load more" button (Adminer's, a feed's) keeps the rows already read and adds the next
    // ones under them: only the added rows are new, or every row would be read again per click.
    const keys = texts.map((cells) => cells.join('\u0001'));
    const isAppended =
      previousPage.length > 0 &&
      keys.length > previousPage.length &&
      previousPage.every((key, position) => keys[position] === key);
    for (const cells of isAppended ? texts.slice(previousPage.length) : texts) {
      rows.push(definition.columns.map((column, index) => typedCell(cells[index] ?? '', column)));
    }
    previousPage = keys;
    if (page >= maxPages || !(await goToNextPage(context, definition, rowsLocator))) break;
  }

  if (context.hooks.keepFile) {
    const fileColumns = definition.columns.flatMap((column, index) =>
      column.type === 'FILE' ? [index] : [],
    );
    for (const [rowIndex, row] of rows.entries()) {
      for (const index of fileColumns) {
        const url = row[index];
        if (typeof url === 'string' && /^https?:/u.test(url)) {
          const file = await fetchFileOfStep(context, url);
          await context.hooks.keepFile({ ...file, cell: { row: rowIndex, column: index } });
        }
      }
    }
  }

  const value: StepValue = {
    kind: 'table',
    columns: definition.columns.map((column) => ({ label: column.label, type: column.type })),
    rows,
  };
  return { value, ...(tableTarget ? { element: await locateTable() } : {}) };
}
