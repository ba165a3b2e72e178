import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aliasOf, datasetTable, fieldColumn } from './dataset-table.js';
import { ident, join, sql, sqlInteger, type SqlIdentifier } from './sql.js';

/** The tagged template and names of dataset SQL (issue 28): nothing a caller passes becomes SQL text. */

describe('sql``', () => {
  it('binds every value as a parameter, numbered in order', () => {
    const name = "Robert'); DROP TABLE students; --";
    const statement = sql`SELECT * FROM t WHERE name = ${name} AND n > ${3} AND at IS ${null}`;
    expect(statement.text).toBe('SELECT * FROM t WHERE name = $1 AND n > $2 AND at IS $3');
    expect(statement.values).toEqual([name, 3, null]);
  });

  it('splices a nested fragment in as SQL and numbers its values with the statement’s', () => {
    const condition = sql`a = ${'x'} AND b = ${'y'}`;
    const statement = sql`SELECT ${1} FROM t WHERE ${condition} LIMIT ${10}`;
    expect(statement.text).toBe('SELECT $1 FROM t WHERE a = $2 AND b = $3 LIMIT $4');
    expect(statement.values).toEqual([1, 'x', 'y', 10]);
    // The fragment alone still reads as a statement of its own.
    expect(condition.text).toBe('a = $1 AND b = $2');
  });

  it('joins fragments with a separator, keeping their values in order', () => {
    const joined = join([sql`a = ${1}`, sql`b`, sql`c = ${3}`], sql` AND `);
    expect(sql`WHERE ${joined}`.text).toBe('WHERE a = $1 AND b AND c = $2');
    expect(joined.values).toEqual([1, 3]);
    expect(join([]).text).toBe('');
  });

  it('binds an array as one parameter', () => {
    const statement = sql`SELECT ${['a', 'b']}::text[]`;
    expect(statement.text).toBe('SELECT $1::text[]');
    expect(statement.values).toEqual([['a', 'b']]);
  });

  it('writes only whole numbers into the text', () => {
    expect(sql`FETCH ${sqlInteger(500)} FROM c`.text).toBe('FETCH 500 FROM c');
    expect(() => sqlInteger(1.5)).toThrow();
    expect(() => sqlInteger(Number.NaN)).toThrow();
  });
});

describe('ident()', () => {
  const datasetId = '0b6c1b6e-4a5f-4c43-9a39-2b7f6d3c9e01';

  it('writes the names made from ids quoted', () => {
    expect(ident(datasetTable(datasetId)).text).toBe('"dataset_rows"."ds_0b6c1b6e4a5f4c439a392b7f6d3c9e01"');
    expect(ident(fieldColumn(datasetId)).text).toBe('"f_0b6c1b6e4a5f4c439a392b7f6d3c9e01"');
    expect(ident(aliasOf('sf', 2)).text).toBe('"sf2"');
    const table = datasetTable(randomUUID());
    expect(sql`SELECT count(*) FROM ${ident(table)} WHERE x = ${'v'}`.values).toEqual(['v']);
  });

  it('takes only a SqlIdentifier: a plain string does not compile', () => {
    const typed = 'students; DROP TABLE students';
    // @ts-expect-error -- a string is not a name made from ids
    expect(() => ident(typed)).toThrow(/Not a dataset name/u);
  });

  it('refuses, at run time, a name forced past the brand', () => {
    for (const name of ['f_1', '"f_1', '"a"; DROP TABLE users; --"', '"A"', '""', '"a".."b"', '"1a"', ''])
      expect(() => ident(name as SqlIdentifier), name).toThrow(/Not a dataset name/u);
  });

  it('names only ids: a table or column of anything else is refused', () => {
    expect(() => datasetTable('x"; DROP TABLE users; --')).toThrow(/Not a uuid/u);
    expect(() => fieldColumn('f_1')).toThrow(/Not a uuid/u);
    expect(() => aliasOf('c', -1)).toThrow();
  });
});
