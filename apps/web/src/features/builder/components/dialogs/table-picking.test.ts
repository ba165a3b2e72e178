import { describe, expect, it } from 'vitest';
import type { PageElementArea } from '@pagewright/shared';
import {
  cellOf,
  columnSelectorOf,
  indexAreas,
  relativeSelector,
  rowSelectorOf,
  rowsOf,
} from './table-picking';

function area(
  id: number,
  parentId: number | null,
  selector: string,
  xpath: string,
  tagName: string,
): PageElementArea {
  return {
    id,
    parentId,
    x: 0,
    y: 0,
    width: 10,
    height: 10,
    selector,
    xpath,
    textContent: '',
    hasText: false,
    containsHref: false,
    tagName,
  };
}

// A database admin tool's result table (Adminer): every cell has an id of its own.
const TABLE = '/html/body/div[2]/form[2]/div/table';
const AREAS = [
  area(0, null, '#table', TABLE, 'table'),
  area(1, 0, '#table > tbody', `${TABLE}/tbody`, 'tbody'),
  area(2, 1, '#table > tbody > tr:nth-of-type(1)', `${TABLE}/tbody/tr[1]`, 'tr'),
  area(3, 2, '#table > tbody > tr:nth-of-type(1) > td:nth-of-type(1)', `${TABLE}/tbody/tr[1]/td[1]`, 'td'),
  area(4, 2, '#val\\[1\\]\\[name\\]', `${TABLE}/tbody/tr[1]/td[3]`, 'td'),
  area(5, 1, '#table > tbody > tr:nth-of-type(2)', `${TABLE}/tbody/tr[2]`, 'tr'),
  area(6, 5, '#val\\[2\\]\\[name\\]', `${TABLE}/tbody/tr[2]/td[3]`, 'td'),
  area(7, 1, '#row-3', `${TABLE}/tbody/tr[3]`, 'tr'),
];

describe('table picking', () => {
  it('places a cell known by its own id by its position in the row, so every row has it', () => {
    const row = AREAS[2]!;
    expect(columnSelectorOf(row, AREAS[4]!)).toBe('td:nth-of-type(3)');
    expect(relativeSelector(AREAS[0]!, AREAS[6]!)).toBe('tbody > tr:nth-of-type(2) > td:nth-of-type(3)');
  });

  it('matches the rows of a table by their path, a row with its own id too', () => {
    const index = indexAreas(AREAS);
    const table = AREAS[0]!;
    const rowSelector = rowSelectorOf(index, table, AREAS[7]!);
    expect(rowSelector).toBe('tbody > tr');
    expect(rowsOf(AREAS, index, table, AREAS[2]!, rowSelector).map((row) => row.id)).toEqual([2, 5, 7]);
  });

  it('finds the cell of a column in each row by its place', () => {
    const index = indexAreas(AREAS);
    expect(cellOf(AREAS, index, AREAS[5]!, 'td:nth-of-type(3)')?.id).toBe(6);
  });

  it('says nothing for elements outside the ancestor', () => {
    expect(relativeSelector(AREAS[2]!, AREAS[6]!)).toBeNull();
  });
});
