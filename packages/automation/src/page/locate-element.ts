import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import type { ElementTarget } from '@pagewright/shared';

type Scope = Page | Frame | FrameLocator;

function scopeOf(page: Page, framePath: readonly string[]): Scope {
  let scope: Page | FrameLocator = page;
  for (const frameSelector of framePath) scope = scope.frameLocator(frameSelector);
  return scope;
}

/** The recorded selector as a Playwright locator; CSS pierces open shadow roots by itself. */
export function recordedLocator(page: Page, target: ElementTarget): Locator {
  const scope = scopeOf(page, target.framePath);
  const selector =
    target.selectorType === 'XPATH' || (!target.selectorValue && target.xpathValue)
      ? `xpath=${target.selectorValue || target.xpathValue}`
      : `css=${target.selectorValue}`;
  return scope.locator(selector).first();
}

export interface LocateOptions {
  /** How long to wait for the element to be attached before giving up (ms). */
  timeoutMs: number;
}

/**
 * Finds the element an action targets. Tries the recorded selector; the fallback locators of the
 * target are tried in order when it no longer matches (see fallback-locators.ts).
 * Returns null when nothing matches within the timeout.
 */
export async function locateElement(
  page: Page,
  target: ElementTarget,
  { timeoutMs }: LocateOptions,
): Promise<Locator | null> {
  const locator = recordedLocator(page, target);
  try {
    await locator.waitFor({ state: 'attached', timeout: timeoutMs });
    return locator;
  } catch {
    return null;
  }
}
