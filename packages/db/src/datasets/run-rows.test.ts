import { describe, expect, it } from 'vitest';
import { cellText } from './dataset-fill.js';
import { rowsOfRun, type RunStepValue } from './run-rows.js';

const table: RunStepValue = {
  actionId: 'table',
  value: {
    kind: 'table',
    columns: [
      { label: 'Name', type: 'TEXT' },
      { label: 'Amount', type: 'NUMBER' },
      { label: 'Statement', type: 'FILE' },
    ],
    rows: [
      ['Alice', 10.5, 'https://example.test/1.pdf'],
      ['Bruno', null, 'https://example.test/2.pdf'],
    ],
  },
  fileId: null,
  tableFiles: [{ rowIndex: 1, columnIndex: 2, fileId: 'file-2' }],
};
const title: RunStepValue = {
  actionId: 'title',
  value: { kind: 'text', value: 'Statements' },
  fileId: null,
  tableFiles: [],
};

describe('rowsOfRun', () => {
  it('gives a row per table row with the labels repeated, and files by their stored id', () => {
    const rows = rowsOfRun(
      [
        { fieldId: 'name', actionId: 'table', tableColumnLabel: 'Name' },
        { fieldId: 'amount', actionId: 'table', tableColumnLabel: 'Amount' },
        { fieldId: 'file', actionId: 'table', tableColumnLabel: 'Statement' },
        { fieldId: 'title', actionId: 'title', tableColumnLabel: null },
      ],
      [table, title],
    );
    expect(rows).toEqual([
      { name: 'Alice', amount: 10.5, file: null, title: 'Statements' },
      { name: 'Bruno', amount: null, file: 'file-2', title: 'Statements' },
    ]);
  });

  it('gives one row of labels when no table is mapped, and none when nothing mapped ran', () => {
    expect(rowsOfRun([{ fieldId: 'title', actionId: 'title', tableColumnLabel: null }], [title])).toEqual([
      { title: 'Statements' },
    ]);
    expect(rowsOfRun([{ fieldId: 'title', actionId: 'title', tableColumnLabel: null }], [])).toEqual([]);
  });

  it('puts the rows of two tables one after the other', () => {
    const other: RunStepValue = {
      ...table,
      actionId: 'other',
      value: { kind: 'table', columns: [{ label: 'Name', type: 'TEXT' }], rows: [['Chloe']] },
    };
    const rows = rowsOfRun(
      [
        { fieldId: 'name', actionId: 'table', tableColumnLabel: 'Name' },
        { fieldId: 'otherName', actionId: 'other', tableColumnLabel: 'Name' },
      ],
      [table, other],
    );
    expect(rows).toEqual([{ name: 'Alice' }, { name: 'Bruno' }, { otherName: 'Chloe' }]);
  });
});

describe('cellText', () => {
  it("keeps what fits the field's type and empties what does not", () => {
    expect(cellText(12.5, 'NUMBER')).toBe('12.5');
    expect(cellText(' -3.25 ', 'NUMBER')).toBe('-3.25');
    expect(cellText('n/a', 'NUMBER')).toBeNull();
    expect(cellText('1,234.50', 'NUMBER')).toBeNull();
    expect(cellText(Number.NaN, 'NUMBER')).toBeNull();
    expect(cellText('2025-03-14T00:00:00.000Z', 'DATETIME')).toBe('2025-03-14T00:00:00.000Z');
    expect(cellText('2025-03-14', 'DATETIME')).toBe('2025-03-14T00:00:00.000Z');
    expect(cellText('14/03/2025', 'DATETIME')).toBeNull();
    expect(cellText(42, 'TEXT')).toBe('42');
    expect(cellText('not-a-uuid', 'FILE')).toBeNull();
    expect(cellText('0b7e4a3c-1f2d-4c5b-9a8e-7d6c5b4a3f21', 'FILE')).toBe(
      '0b7e4a3c-1f2d-4c5b-9a8e-7d6c5b4a3f21',
    );
    expect(cellText(undefined, 'TEXT')).toBeNull();
  });
});
