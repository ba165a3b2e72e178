import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import type { ElementTarget, FallbackLocator } from '@pagewright/shared';
import { locatorFor } from './fallback-locators.js';

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

export interface LocatedElement {
  locator: Locator;
  /** 'recorded' when the recorded selector matched, otherwise the kind of the fallback that did. */
  matchedBy: 'recorded' | FallbackLocator['kind'];
  /** The fallback that found it, when the recorded selector did not. */
  fallback?: FallbackLocator;
}

/** Pauses between attempts while the page may still be rendering the element. */
const RETRY_DELAYS_MS = [50, 100, 200, 400] as const;
const MAX_RETRY_DELAY_MS = 500;

/**
 * Finds the element an action targets and says how. Each attempt tries the recorded selector first,
 * then every fallback of the target in order; a fallback counts only when it matches exactly one
 * element, so a vague fallback never picks a wrong element. Attempts repeat until the timeout.
 * Returns null when nothing matches within the timeout.
 */
export async function locateElementWithSource(
  page: Page,
  target: ElementTarget,
  { timeoutMs }: LocateOptions,
): Promise<LocatedElement | null> {
  const deadline = Date.now() + timeoutMs;
  const recorded = recordedLocator(page, target);
  const scope = scopeOf(page, target.framePath);
  const fallbacks = target.fallbackLocators.map((fallback) => ({
    fallback,
    locator: locatorFor(scope, fallback),
  }));
  for (let attempt = 0; ; attempt += 1) {
    if ((await countOrZero(recorded)) > 0) return { locator: recorded, matchedBy: 'recorded' };
    for (const fallback of fallbacks) {
      if ((await countOrZero(fallback.locator)) === 1)
        return {
          locator: fallback.locator.first(),
          matchedBy: fallback.fallback.kind,
          fallback: fallback.fallback,
        };
    }
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) return null;
    await delay(Math.min(RETRY_DELAYS_MS[attempt] ?? MAX_RETRY_DELAY_MS, remainingMs));
  }
}

/**
 * Finds the element an action targets: the recorded selector, else the first fallback locator that
 * matches exactly one element (see locateElementWithSource). Returns null when nothing matches
 * within the timeout.
 */
export async function locateElement(
  page: Page,
  target: ElementTarget,
  options: LocateOptions,
): Promise<Locator | null> {
  return (await locateElementWithSource(page, target, options))?.locator ?? null;
}

/** A selector the engine cannot parse, or a frame that is navigating, counts as no match. */
async function countOrZero(locator: Locator): Promise<number> {
  try {
    return await locator.count();
  } catch {
    return 0;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
