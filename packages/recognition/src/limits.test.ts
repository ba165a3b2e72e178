import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { formatMessage } from '@pagewright/shared';
import { isBoxChecked } from './checkbox.js';
import { PAGE_PIXELS_MAX, REGION_PIXELS_MAX, clampScale } from './limits.js';
import { openPdf } from './pdf.js';
import { readStatement, renderSample } from './read-statement.js';
import { renderRegion, renderRegionPng } from './render.js';

/**
 * A PDF as an attacker writes it, a few hundred bytes a page: `count` pages of `side` × `side`
 * points sharing one thick diagonal stroke (no xref table: PDF.js rebuilds it).
 */
function tinyPdf(side: number, count = 1): Uint8Array {
  const stroke = `${side / 6} w 0 0 0 RG ${side / 10} ${side / 10} m ${(side * 9) / 10} ${(side * 9) / 10} l S`;
  const pages = Array.from({ length: count }, (_, index) => index + 4);
  return new TextEncoder().encode(
    [
      '%PDF-1.4',
      '1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj',
      `2 0 obj <</Type/Pages/Kids[${pages.map((object) => `${object} 0 R`).join(' ')}]/Count ${count}>> endobj`,
      `3 0 obj <</Length ${stroke.length}>> stream\n${stroke}\nendstream endobj`,
      ...pages.map(
        (object) =>
          `${object} 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 ${side} ${side}]/Contents 3 0 R>> endobj`,
      ),
      'trailer <</Root 1 0 R>>',
      '%%EOF',
    ].join('\n'),
  );
}

const WHOLE_PAGE = { x: 0, y: 0, w: 1, h: 1 };

describe('limits on what a PDF may cost (issue 24)', () => {
  it('keeps the asked scale for real pages and lowers it for a huge area', () => {
    // A Letter page at 300 dpi (8.4 Mpx), OCR's scale.
    expect(clampScale(612, 792, 300 / 72, REGION_PIXELS_MAX)).toBe(300 / 72);
    const scale = clampScale(8000, 8000, 3, REGION_PIXELS_MAX);
    expect(scale).toBeLessThan(3);
    expect(8000 * scale * 8000 * scale).toBeCloseTo(REGION_PIXELS_MAX, -2);
  });

  it('paints a full-page box of an 8000 pt page within the region budget, and still sees its ink', async () => {
    const document = await openPdf(tinyPdf(8000));
    try {
      const page = await document.getPage(1);
      const { width, height } = await renderRegion(page, WHOLE_PAGE, 3);
      expect(width * height).toBeLessThanOrEqual(REGION_PIXELS_MAX * 1.01);
      const png = await renderRegionPng(page, WHOLE_PAGE, 300 / 72);
      const { width: ocrWidth = 0, height: ocrHeight = 0 } = await sharp(png).metadata();
      expect(ocrWidth * ocrHeight).toBeLessThanOrEqual(REGION_PIXELS_MAX * 1.01);
      expect(await isBoxChecked(page, WHOLE_PAGE, [])).toBe(true);
      expect(PAGE_PIXELS_MAX).toBeGreaterThanOrEqual(REGION_PIXELS_MAX);
    } finally {
      await document.destroy();
    }
  });

  it('refuses a page over 14,400 pt on a side, and more pages than allowed, with the sentence', async () => {
    const page = { pageNumber: 1, boxes: [], sampleText: null };
    await expect(readStatement(tinyPdf(20_000), [page])).rejects.toThrow(
      formatMessage('recognition.pdf.page.size', { page: 1, width: '20,000', height: '20,000' }),
    );
    await expect(readStatement(tinyPdf(600, 1001), [page], undefined, 1000)).rejects.toThrow(
      formatMessage('recognition.pdf.too.many.pages', { pageCount: 1001, max: 1000 }),
    );
    const onPage = async () => undefined;
    await expect(renderSample(tinyPdf(20_000), { longEdge: 1600, maxPages: 50, onPage })).rejects.toThrow(
      /^Page 1 of this PDF measures 20,000 × 20,000 points/u,
    );
    await expect(
      renderSample(tinyPdf(600, 11), { longEdge: 1600, maxPages: 50, pagesMax: 10, onPage }),
    ).rejects.toThrow('This PDF has 11 pages: at most 10 can be read.');
  });
});
