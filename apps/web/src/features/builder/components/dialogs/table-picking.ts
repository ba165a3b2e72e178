import type { PageElementArea } from '@pagewright/shared';

/**
 * Pure helpers of the get-table panel: where the picked areas sit in the page's area tree and the
 * selectors GET_TABLE runs with. An area's selector is its parent's selector plus " > tag" (with
 * :nth-of-type when the tag repeats), or "#id" when the element has a unique id (page-probe.ts).
 */

export type AreaIndex = ReadonlyMap<number, PageElementArea>;

export function indexAreas(areas: readonly PageElementArea[]): AreaIndex {
  return new Map(areas.map((area) => [area.id, area]));
}

/** True when `id` is `ancestorId` or lies inside it. */
export function isInside(index: AreaIndex, id: number, ancestorId: number): boolean {
  for (
    let current = index.get(id);
    current;
    current = current.parentId === null ? undefined : index.get(current.parentId)
  )
    if (current.id === ancestorId) return true;
  return false;
}

export function firstChildOf(areas: readonly PageElementArea[], id: number): PageElementArea | undefined {
  return areas.filter((area) => area.parentId === id).sort((a, b) => a.id - b.id)[0];
}

/** One step of an element's XPath (`td[3]`, `tbody`), as CSS (`td:nth-of-type(3)`, `tbody`). */
const XPATH_STEP = /^([a-z][a-z0-9-]*)(?:\[(\d+)\])?$/u;

/**
 * The descendant's selector relative to the ancestor: '' for the same element, null when not
 * derivable. From the CSS paths when one extends the other, else from the XPaths: an element known
 * by its own id (Adminer gives every cell one: `#val[…][name]`) still has its place under the row
 * (`td:nth-of-type(3)`), which is what matches the same column in every other row.
 */
export function relativeSelector(ancestor: PageElementArea, descendant: PageElementArea): string | null {
  if (ancestor.id === descendant.id) return '';
  const prefix = `${ancestor.selector} > `;
  if (descendant.selector.startsWith(prefix)) return descendant.selector.slice(prefix.length);
  if (!ancestor.xpath || !descendant.xpath.startsWith(`${ancestor.xpath}/`)) return null;
  const steps = descendant.xpath.slice(ancestor.xpath.length + 1).split('/');
  const css: string[] = [];
  for (const step of steps) {
    const match = XPATH_STEP.exec(step);
    if (!match?.[1]) return null;
    css.push(match[2] ? `${match[1]}:nth-of-type(${match[2]})` : match[1]);
  }
  return css.join(' > ');
}

/** A row selector that matches every row: the picked row's position in its parent is dropped. */
export function rowPattern(relative: string): string {
  return relative.replace(/:nth-of-type\(\d+\)$/, '');
}

/**
 * The row selector (inside the table) for a picked row: its path from the table with the row's
 * position dropped; when the path passes an element known by its id (a `<tbody id>`), from that
 * element (`#user-rows > tr`); a row known only by its own id falls back to its tag (the rows of
 * a table share their tag, not their id; rows whose cells are all missing are skipped at run time).
 */
export function rowSelectorOf(index: AreaIndex, table: PageElementArea, row: PageElementArea): string {
  const relative = relativeSelector(table, row);
  if (relative !== null && relative !== '') return rowPattern(relative);
  const parent = row.parentId === null ? undefined : index.get(row.parentId);
  if (parent && parent.id !== table.id && isInside(index, parent.id, table.id)) {
    const fromParent = relativeSelector(parent, row);
    if (fromParent) return `${parent.selector} > ${rowPattern(fromParent)}`;
  }
  return row.tagName;
}

/** The column selector (inside the row) for a picked cell; its tag when the path is not derivable. */
export function columnSelectorOf(row: PageElementArea, cell: PageElementArea): string {
  return relativeSelector(row, cell) ?? cell.tagName;
}

/** The rows of the table as the areas show them, in page order: the picked row's siblings in kind. */
export function rowsOf(
  areas: readonly PageElementArea[],
  index: AreaIndex,
  table: PageElementArea,
  pickedRow: PageElementArea,
  rowSelector: string,
): PageElementArea[] {
  return areas.filter(
    (area) =>
      area.id !== table.id &&
      area.tagName === pickedRow.tagName &&
      isInside(index, area.id, table.id) &&
      rowSelectorOf(index, table, area) === rowSelector &&
      (rowSelector !== pickedRow.tagName || area.parentId === pickedRow.parentId),
  );
}

/** The text an element shows: its own text and its descendants', in page order. */
export function textOf(areas: readonly PageElementArea[], index: AreaIndex, area: PageElementArea): string {
  return areas
    .filter((candidate) => candidate.hasText && isInside(index, candidate.id, area.id))
    .map((candidate) => candidate.textContent)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The cell of a column in a row, as the engine finds it (row.querySelector(columnSelector)). */
export function cellOf(
  areas: readonly PageElementArea[],
  index: AreaIndex,
  row: PageElementArea,
  columnSelector: string,
): PageElementArea | undefined {
  if (columnSelector === '') return row;
  const exact = `${row.selector} > ${columnSelector}`;
  const inRow = (area: PageElementArea) => area.id !== row.id && isInside(index, area.id, row.id);
  return (
    areas.find((area) => area.selector === exact) ??
    areas.find((area) => inRow(area) && relativeSelector(row, area) === columnSelector) ??
    areas.find((area) => inRow(area) && area.tagName === columnSelector)
  );
}

/** Most characters of an element's text shown where it is named. */
const DESCRIBED_TEXT_MAX = 40;

/** An element as a person reads it: its tag and the start of its text (`td "User 1"`). */
export function describeArea(
  areas: readonly PageElementArea[],
  index: AreaIndex,
  area: PageElementArea,
): string {
  const text = textOf(areas, index, area);
  if (!text) return area.tagName;
  const shown = text.length > DESCRIBED_TEXT_MAX ? `${text.slice(0, DESCRIBED_TEXT_MAX - 1)}…` : text;
  return `${area.tagName} "${shown}"`;
}
