import type { Frame, Page } from 'playwright-core';
import { elementAtPointSchema, type ElementAtPoint, type Point } from '@pagewright/shared';
import { runPageProbe, type PointProbeAnswer } from './page-probe.js';

/** Nested iframes deeper than this are not followed (a guard against pathological pages). */
const MAX_FRAME_DEPTH = 8;

/**
 * The element under a viewport point (automation spec §3, element-at-point answer), with what the
 * engine keeps to find it again: a unique CSS selector, its XPath, the iframes to enter and the
 * ordered fallback locators. Same-origin iframes and open shadow roots are entered inside the page
 * in a single evaluate; a cross-origin iframe costs one more evaluate in that frame. The box is in
 * top-level viewport coordinates. Returns null when nothing is at the point.
 */
export async function elementAtPoint(page: Page, point: Point): Promise<ElementAtPoint | null> {
  let frame: Frame = page.mainFrame();
  let { x, y } = point;
  let offsetX = 0;
  let offsetY = 0;
  const framePath: string[] = [];
  for (let depth = 0; depth < MAX_FRAME_DEPTH; depth += 1) {
    const answer = JSON.parse(await runPageProbe(frame, { mode: 'point', x, y })) as PointProbeAnswer;
    if (answer.kind === 'none') return null;
    if (answer.kind === 'frame') {
      const child = await childFrame(frame, answer.framePath);
      if (!child) return null;
      frame = child;
      framePath.push(...answer.framePath);
      ({ x, y } = answer);
      offsetX += answer.offsetX;
      offsetY += answer.offsetY;
      continue;
    }
    const { element } = answer;
    return elementAtPointSchema.parse({
      selectorType: 'CSS',
      selectorValue: element.selector,
      xpathValue: element.xpath ?? undefined,
      framePath: [...framePath, ...element.framePath],
      fallbackLocators: element.fallbacks,
      type: element.type,
      tagName: element.tagName,
      textContent: element.textContent,
      box: { ...element.box, x: element.box.x + offsetX, y: element.box.y + offsetY },
      isDownloadLink: element.isDownloadLink,
      ...(element.selectOptions ? { selectOptions: element.selectOptions } : {}),
    });
  }
  return null;
}

async function childFrame(parent: Frame, frameSelectors: readonly string[]): Promise<Frame | null> {
  let frame: Frame | null = parent;
  for (const selector of frameSelectors) {
    if (!frame) return null;
    const handle = await frame.locator(selector).first().elementHandle({ timeout: 1_000 });
    if (!handle) return null;
    frame = await handle.contentFrame();
    await handle.dispose();
  }
  return frame;
}
