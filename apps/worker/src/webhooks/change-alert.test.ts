import { describe, expect, it } from 'vitest';
import { CHANGE_ALERT_LIST_MAX, changeAlertMail, diffRunTables, type RunTable } from './change-alert.js';

const table = (rows: (string | null)[][], key = 'a1'): Map<string, RunTable> =>
  new Map([[key, { key, label: 'Prices', columns: ['Item', 'Price'], rows }]]);

describe('diffRunTables', () => {
  it('tells added, removed and changed rows apart by their first cell', () => {
    const [changes] = diffRunTables(
      table([
        ['pen', '1.00'],
        ['ink', '2.00'],
        ['cap', '0.50'],
      ]),
      table([
        ['pen', '1.00'],
        ['ink', '2.50'],
        ['pad', '3.00'],
      ]),
    );
    expect(changes).toMatchObject({
      table: 'Prices',
      added: 1,
      removed: 1,
      changed: 1,
      addedRows: [['pad', '3.00']],
      removedRows: [['cap', '0.50']],
      changedRows: [{ before: ['ink', '2.00'], after: ['ink', '2.50'] }],
    });
  });

  it('says nothing when the rows are the same, in whatever order', () => {
    expect(
      diffRunTables(
        table([
          ['a', '1'],
          ['b', '2'],
        ]),
        table([
          ['b', '2'],
          ['a', '1'],
        ]),
      ),
    ).toEqual([]);
  });

  it('lists at most 50 rows of a kind and says how many there were', () => {
    const many = Array.from({ length: 60 }, (_, index) => [`item ${index}`, '1']);
    const [changes] = diffRunTables(table([]), table(many));
    expect(changes?.added).toBe(60);
    expect(changes?.addedRows).toHaveLength(CHANGE_ALERT_LIST_MAX);
    const mail = changeAlertMail({
      to: 'a@example.com',
      firstName: 'Ada <b>',
      extractorName: 'Prices',
      changes: changes ? [changes] : [],
      resultsUrl: 'https://example.com/r',
    });
    expect(mail.text).toContain('Added (first 50 of 60):');
    expect(mail.html).toContain('Ada &lt;b&gt;');
  });
});
