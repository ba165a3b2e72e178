import type { Locator } from 'playwright-core';
import type { ElementLocatedBy, FallbackLocator } from '@pagewright/shared';
import { runPageProbe } from './page-probe.js';

/** Set on the found element for one probe: the probe reads its selector as the builder records one. */
const MARK = 'data-pagewright-located';

/**
 * When a fallback found a step's element (the recorded selector no longer matched): which
 * fallback, and the selector the builder would record for that element now, so that the operator
 * can make it the step's locator with one click (issue 22). Undefined when it cannot be read.
 */
export async function locatedByFallback(
  element: Locator,
  fallback: FallbackLocator,
): Promise<ElementLocatedBy | undefined> {
  const handle = await element.elementHandle({ timeout: 1_000 }).catch(() => null);
  if (!handle) return undefined;
  try {
    const frame = await handle.ownerFrame();
    if (!frame) return undefined;
    await handle.evaluate((node: Element, mark: string) => node.setAttribute(mark, ''), MARK);
    try {
      const found = JSON.parse(await runPageProbe(frame, { mode: 'marked', attribute: MARK })) as {
        selector: string;
        xpath: string | null;
      } | null;
      if (!found) return undefined;
      return { fallback, selectorValue: found.selector, xpathValue: found.xpath };
    } finally {
      await handle
        .evaluate((node: Element, mark: string) => node.removeAttribute(mark), MARK)
        .catch(() => undefined);
    }
  } catch {
    return undefined;
  } finally {
    await handle.dispose().catch(() => undefined);
  }
}
