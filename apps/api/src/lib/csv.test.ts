import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.js';

describe('csvLine', () => {
  it('quotes only the fields that need it and ends with CRLF', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', null, 12.5])).toBe(
      'a,"b,c","say ""hi""","two\nlines",,12.5\r\n',
    );
  });
});
