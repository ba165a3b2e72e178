import type { Page } from 'playwright-core';
import type { PageElementArea } from '@pagewright/shared';
import { runPageProbe } from './page-probe.js';

/** Cap on the HTML kept for step inspection, in UTF-8 bytes. */
export const NORMALIZED_HTML_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Every visible element of the top document with a box (automation spec §3, page element area),
 * numbered in document order; parentId is the nearest visible ancestor. Boxes are in viewport
 * coordinates. Elements of open shadow roots are listed after their host (their selectors step
 * from the host with " > ", their xpath is empty: XPath cannot enter a shadow root); closed
 * shadow roots and iframes are not listed.
 */
export async function pageElementAreas(page: Page): Promise<PageElementArea[]> {
  return JSON.parse(await runPageProbe(page, { mode: 'areas' })) as PageElementArea[];
}

/**
 * The page's HTML for step inspection: scripts, styles and comments stripped, inline event handlers
 * and javascript: URLs removed, capped at 2 MB.
 */
export async function normalizedHtml(page: Page): Promise<string> {
  const html = await runPageProbe(page, { mode: 'html', maxLength: NORMALIZED_HTML_MAX_BYTES });
  const bytes = Buffer.from(html, 'utf8');
  if (bytes.length <= NORMALIZED_HTML_MAX_BYTES) return html;
  // Cutting bytes can split a character; drop the replacement character it leaves behind.
  return bytes
    .subarray(0, NORMALIZED_HTML_MAX_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}
