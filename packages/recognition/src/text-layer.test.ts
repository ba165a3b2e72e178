import { describe, expect, it } from 'vitest';
import { inkShare } from './checkbox.js';
import { findLabel, textInBox, type PageText } from './text-layer.js';

const run = (str: string, x: number, y: number, w = str.length * 0.01): PageText => ({
  str,
  x,
  y,
  w,
  h: 0.015,
});

describe('text by box', () => {
  const texts = [
    run('Account number: GB123', 0.1, 0.2),
    run('12 High Street', 0.3, 0.3),
    run('London', 0.3, 0.32),
    run('Balance', 0.1, 0.5),
  ];

  it('takes only the characters across the box from a run holding label and value', () => {
    expect(textInBox(texts, { x: 0.26, y: 0.19, w: 0.2, h: 0.03 })).toBe('GB123');
  });

  it('keeps lines, top to bottom', () => {
    expect(textInBox(texts, { x: 0.29, y: 0.295, w: 0.3, h: 0.04 })).toBe('12 High Street\nLondon');
  });

  it('leaves out a run less than half inside the box vertically', () => {
    expect(textInBox(texts, { x: 0, y: 0.512, w: 1, h: 0.05 })).toBe('');
  });

  it('finds a label, the occurrence nearest to where it was', () => {
    const twice = [run('Total:', 0.1, 0.1), run('Total:', 0.1, 0.8)];
    expect(findLabel(twice, 'total:', { x: 0.1, y: 0.75 })).toEqual({ x: 0.1, y: 0.8 });
    expect(findLabel(twice, 'Missing', { x: 0, y: 0 })).toBeNull();
  });
});

describe('checkbox ink', () => {
  /** A square of `size` px with a 2 px border, crossed when `isTicked`. */
  function square(size: number, isTicked: boolean): Uint8ClampedArray {
    const data = new Uint8ClampedArray(size * size * 4).fill(255);
    const ink = (x: number, y: number) => data.fill(0, (y * size + x) * 4, (y * size + x) * 4 + 3);
    for (let y = 0; y < size; y += 1)
      for (let x = 0; x < size; x += 1) {
        const isBorder = x < 2 || y < 2 || x >= size - 2 || y >= size - 2;
        const isCross = isTicked && (Math.abs(x - y) <= 1 || Math.abs(x + y - size + 1) <= 1);
        if (isBorder || isCross) ink(x, y);
      }
    return data;
  }

  it('does not count the printed square as a tick, counts a cross', () => {
    expect(inkShare(square(36, false), 36, 36)).toBeLessThan(0.02);
    expect(inkShare(square(36, true), 36, 36)).toBeGreaterThan(0.1);
  });

  it('counts a transparent pixel as paper', () => {
    expect(inkShare(new Uint8ClampedArray(16 * 4), 4, 4)).toBe(0);
  });
});
