import { describe, expect, it } from 'vitest';
import {
  csvFileName,
  looksLikePdf,
  parseCsvCells,
  parseRecognitionCsv,
  templateBoxSchema,
  toRecognitionCsv,
} from './recognition.js';

const values = [
  { filename: 'a, b.pdf', page: 1, label: 'Note', value: 'Paid "in full", ref 3' },
  { filename: 'a, b.pdf', page: 1, label: 'Address', value: '12 High Street\nLondon' },
  { filename: 'c.pdf', page: 2, label: 'Empty', value: '' },
];

describe('the consolidated CSV (data spec §3, §9)', () => {
  it('writes a header and one record a value, quoting commas and quotes, line breaks as __NL__', () => {
    expect(toRecognitionCsv(values)).toBe(
      'filename,page,label,value\r\n' +
        '"a, b.pdf",1,Note,"Paid ""in full"", ref 3"\r\n' +
        '"a, b.pdf",1,Address,12 High Street__NL__London\r\n' +
        'c.pdf,2,Empty,\r\n',
    );
  });

  it('reads back what it wrote: the first four cells skipped, __NL__ back to line breaks', () => {
    expect(parseRecognitionCsv(toRecognitionCsv(values))).toEqual(values);
  });

  it('reads quoted cells holding line breaks (RFC 4180) as other tools write them', () => {
    expect(parseCsvCells('a,"x\r\ny",c\nd,e,f')).toEqual([
      ['a', 'x\r\ny', 'c'],
      ['d', 'e', 'f'],
    ]);
  });

  it('neutralises cells a spreadsheet would run as formulas (OWASP), leaving signed plain numbers', () => {
    const risky = [
      { filename: '=cmd.pdf', page: 1, label: '@Label', value: '+SUM(A1)' },
      { filename: 'b.pdf', page: 1, label: 'Tab', value: '\tx' },
      { filename: 'b.pdf', page: 1, label: 'Quote', value: '-1+"2"' },
      { filename: 'b.pdf', page: 1, label: 'Amount', value: '-1,234.50' },
      { filename: 'b.pdf', page: 1, label: 'Credit', value: '+12' },
      { filename: 'b.pdf', page: 1, label: 'Inside', value: 'a=b-c' },
    ];
    expect(toRecognitionCsv(risky)).toBe(
      'filename,page,label,value\r\n' +
        `"'=cmd.pdf",1,"'@Label","'+SUM(A1)"\r\n` +
        `b.pdf,1,Tab,"'\tx"\r\n` +
        `b.pdf,1,Quote,"'-1+""2"""\r\n` +
        'b.pdf,1,Amount,"-1,234.50"\r\n' +
        'b.pdf,1,Credit,+12\r\n' +
        'b.pdf,1,Inside,a=b-c\r\n',
    );
    // The file keeps the neutralised form; the table reads the cells as the file holds them.
    expect(parseRecognitionCsv(toRecognitionCsv(risky))[0]).toEqual({
      filename: "'=cmd.pdf",
      page: 1,
      label: "'@Label",
      value: "'+SUM(A1)",
    });
  });

  it('names downloads after the PDF', () => {
    expect(csvFileName('May statement.PDF')).toBe('May statement.csv');
  });
});

describe('what is accepted', () => {
  it('knows a PDF by its bytes, not its name', () => {
    expect(looksLikePdf(new TextEncoder().encode('%PDF-1.7\n...'))).toBe(true);
    expect(looksLikePdf(new TextEncoder().encode(`${' '.repeat(500)}%PDF-1.4`))).toBe(true);
    expect(looksLikePdf(new TextEncoder().encode('PK\u0003\u0004'))).toBe(false);
  });

  it("gives a box the spec's defaults and refuses one outside its page or of another type", () => {
    const box = { x: 0.1, y: 0.1, w: 0.2, h: 0.1, pixel_width: 100, pixel_height: 100 };
    expect(templateBoxSchema.parse(box)).toMatchObject({ mapping_type: 'TEXT', mapping_label: 'EMPTY' });
    expect(templateBoxSchema.safeParse({ ...box, x: 0.9 }).success).toBe(false);
    expect(templateBoxSchema.safeParse({ ...box, mapping_type: 'DATE' }).error?.issues[0]?.message).toBe(
      'The field type must be TEXT or CHECKBOX',
    );
  });
});
