import { describe, expect, it } from 'vitest';
import { boxMismatches, isSameSize, looksLikeSample, type CheckedBox } from './template-match.js';

describe('whether a value looks like the sample', () => {
  it('takes values of the same kind, whatever they say', () => {
    expect(looksLikeSample('GB29 NWBK 6016 1331 9268 19', 'GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(looksLikeSample('1,204.50', '12,345.67')).toBe(true);
    expect(looksLikeSample('Alexandra Montgomery', 'Ada Lovelace')).toBe(true);
    expect(looksLikeSample('anything', '')).toBe(true);
  });

  it('refuses what another layout puts in the box (the issue\'s "ISSN: OMB No. 1545-007")', () => {
    expect(looksLikeSample('OMB No. 1545-007', '2049-3630')).toBe(false);
    expect(looksLikeSample('', 'Ada Lovelace')).toBe(false);
    expect(looksLikeSample('Department of the Treasury—Internal Revenue Service', '42')).toBe(false);
  });
});

describe('page sizes', () => {
  it("compares points within 3 %, or the sides' ratio when only the sample picture is known", () => {
    expect(isSameSize({ width: 612, height: 792 }, { width: 612, height: 792 }, false)).toBe(true);
    expect(isSameSize({ width: 595, height: 842 }, { width: 612, height: 792 }, false)).toBe(false);
    expect(isSameSize({ width: 595, height: 842 }, { width: 1131, height: 1600 }, true)).toBe(true);
    expect(isSameSize({ width: 612, height: 792 }, { width: 1131, height: 1600 }, true)).toBe(false);
  });
});

describe('the file-wide verdict', () => {
  const box = (problem: CheckedBox['problem'], hasAnchor = true, isCompared = true): CheckedBox => ({
    label: `box ${Math.random()}`,
    hasAnchor,
    isCompared,
    problem,
  });

  it('marks a file when half its anchors are lost or most values are unlike the sample', () => {
    expect(boxMismatches([box(null), box(null), box('anchor-missing')])).toEqual([]);
    expect(boxMismatches([box(null), box('anchor-missing')]).map(({ kind }) => kind)).toEqual([
      'anchors-missing',
    ]);
    expect(
      boxMismatches([box('unlike-sample', false), box('unlike-sample', false), box(null, false)]).map(
        ({ kind }) => kind,
      ),
    ).toEqual(['unlike-sample']);
  });

  it('does not call one long name a different document', () => {
    expect(boxMismatches([box('unlike-sample', false)])).toEqual([]);
    expect(boxMismatches([box('unlike-sample', false), box(null, false)])).toEqual([]);
  });
});
