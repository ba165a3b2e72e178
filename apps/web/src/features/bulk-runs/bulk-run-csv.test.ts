import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@pagewright/shared';
import { csvRecords, previewCsv } from './bulk-run-csv';

const INPUTS = [{ name: 'page' }, { name: 'say' }];

describe('a CSV as the bulk-run dialog previews it', () => {
  it('reads quoted values with commas, quotes and line breaks as one row each', () => {
    const text =
      '\uFEFFpage,say\r\nhttps://a.example/1,"one, ""quoted""\nover two lines"\r\n\r\n https://a.example/2 ,two\n';
    expect(csvRecords(text)).toEqual([
      ['page', 'say'],
      ['https://a.example/1', 'one, "quoted"\nover two lines'],
      ['https://a.example/2', 'two'],
    ]);
    expect(previewCsv(text, INPUTS)).toEqual({ columns: ['page', 'say'], rowCount: 2, problem: null });
  });

  it('names what the API would refuse: an open quote, no rows, a row of another width', () => {
    expect(previewCsv('page\n"https://a.example/1\n', INPUTS).problem).toMatch(/not closed/);
    expect(previewCsv('page,say\n', INPUTS).problem).toBe(MESSAGES['bulk.run.empty']);
    expect(previewCsv('page,say\nhttps://a.example/1,one\nhttps://a.example/2\n', INPUTS).problem).toBe(
      'Row 2: it has 1 value(s) where the header names 2.',
    );
  });
});
