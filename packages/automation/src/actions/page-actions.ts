import type { Page } from 'playwright-core';
import { WAIT_SECONDS_MAX, WAIT_SECONDS_MIN, type Point } from '@pagewright/shared';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import { assertNavigationAllowed } from '../safety/navigation-guard.js';
import { type ActionContext, type ActionOutcome, NONE, fail, sleep } from './action-context.js';

export async function navigate(context: ActionContext): Promise<ActionOutcome> {
  const url = context.action.options?.text?.trim();
  if (!url) fail(AUTOMATION_CODES.INVALID_ARGUMENT, 'NAVIGATE needs a URL in options.text');
  await assertNavigationAllowed(url, context.navigationPolicy);
  await context.page.goto(url, { waitUntil: 'load', timeout: context.limits.navigationTimeoutMs });
  return { value: { kind: 'text', value: context.page.url() } };
}

export async function goBack(context: ActionContext): Promise<ActionOutcome> {
  await context.page.goBack({ waitUntil: 'load', timeout: context.limits.navigationTimeoutMs });
  return { value: NONE };
}

export async function goForward(context: ActionContext): Promise<ActionOutcome> {
  await context.page.goForward({ waitUntil: 'load', timeout: context.limits.navigationTimeoutMs });
  return { value: NONE };
}

/** WAIT seconds: options.number (or a number typed in options.text), clamped 0–60; empty or NaN is 0. */
export function waitSecondsOf(context: ActionContext): number {
  const raw = context.action.options?.number ?? Number(context.action.options?.text ?? 0);
  const seconds = Number.isFinite(raw) ? raw : 0;
  return Math.min(WAIT_SECONDS_MAX, Math.max(WAIT_SECONDS_MIN, seconds));
}

export async function wait(context: ActionContext): Promise<ActionOutcome> {
  await sleep(waitSecondsOf(context) * 1000);
  return { value: NONE };
}

export async function raiseError(context: ActionContext): Promise<ActionOutcome> {
  fail(AUTOMATION_CODES.UNKNOWN_ERROR, context.action.options?.text || 'RAISE_ERROR');
}

export async function end(): Promise<ActionOutcome> {
  return { value: NONE, stop: 'END' };
}

/** SCROLL_BOTTOM reads documentElement through the prototype: a named image or form shadows it. */
const SCROLLS = {
  SCROLL_UP: 'window.scrollBy(0, -window.innerHeight)',
  SCROLL_DOWN: 'window.scrollBy(0, window.innerHeight)',
  SCROLL_TOP: 'window.scrollTo(0, 0)',
  SCROLL_BOTTOM:
    'window.scrollTo(0, Object.getOwnPropertyDescriptor(Document.prototype, "documentElement").get.call(document).scrollHeight)',
} as const;

/**
 * Turns the wheel `deltaY` pixels at `point` (the viewport's centre when absent) and returns once
 * the page has moved: the wheel scrolls asynchronously, two animation frames later it has.
 */
export async function wheelAt(page: Page, point: Point | undefined, deltaY: number): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  const at = point ?? { x: viewport.width / 2, y: viewport.height / 2 };
  await page.mouse.move(at.x, at.y);
  await page.mouse.wheel(0, deltaY);
  await page.evaluate(
    'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(0))))',
  );
}

/**
 * SCROLL_*: one viewport (the spec's Scroll up / down), or, recorded from the wheel on the page
 * view (issue 22), `options.number` pixels with the wheel at `options.point`, so that the
 * container under the pointer scrolls as it did (an app whose content scrolls in a div too).
 */
export async function scroll(context: ActionContext): Promise<ActionOutcome> {
  const { type, options } = context.action;
  const pixels = options?.number;
  if ((type === 'SCROLL_UP' || type === 'SCROLL_DOWN') && pixels !== undefined && pixels > 0) {
    await wheelAt(context.page, options?.point, type === 'SCROLL_DOWN' ? pixels : -pixels);
    return { value: NONE };
  }
  const expression = SCROLLS[type as keyof typeof SCROLLS];
  await context.page.evaluate(expression);
  return { value: NONE };
}

function pointOf(context: ActionContext): { x: number; y: number } {
  const point = context.action.options?.point;
  if (!point) fail(AUTOMATION_CODES.INVALID_ARGUMENT, `${context.action.type} needs options.point`);
  return point;
}

export async function mouseClick(context: ActionContext): Promise<ActionOutcome> {
  const { x, y } = pointOf(context);
  await context.page.mouse.click(x, y);
  return { value: NONE };
}

export async function mouseMove(context: ActionContext): Promise<ActionOutcome> {
  const { x, y } = pointOf(context);
  await context.page.mouse.move(x, y);
  return { value: NONE };
}
