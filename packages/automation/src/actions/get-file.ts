/// <reference lib="dom" />
import type { Download, Locator, Request } from 'playwright-core';
import { AutomationError } from '../flow/automation-error.js';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import type { KeptFile } from '../flow/flow-types.js';
import {
  type ActionContext,
  type ActionOutcome,
  elementTimeoutOf,
  requireElement,
} from './action-context.js';
import { fetchFile, fileNameOf, mimeOf, readCapped } from './fetch-file.js';

/** fetchFile with the step's policy, proxy and limits (GET_FILE links, GET_TABLE FILE cells). */
export function fetchFileOfStep(context: ActionContext, url: string): Promise<KeptFile> {
  return fetchFile(context.page, url, {
    policy: context.navigationPolicy,
    maxBytes: context.limits.fileMaxBytes,
    timeoutMs: context.limits.navigationTimeoutMs,
    proxyUrl: context.egressProxyUrl,
  });
}

async function hrefOf(element: Locator, timeout: number): Promise<string | null> {
  return element.evaluate(
    (node: Element) => {
      // Through the prototypes: a form's controls shadow its properties by name.
      // eslint-disable-next-line @typescript-eslint/unbound-method -- each is called on a node with .call
      const { closest, querySelector, getAttribute } = Element.prototype;
      const link: Element | null = closest.call(node, 'a[href]') ?? querySelector.call(node, 'a[href]');
      if (!link) return null;
      // The href property's value: the attribute resolved against the document base.
      const href = getAttribute.call(link, 'href') ?? '';
      const base: unknown = Object.getOwnPropertyDescriptor(Node.prototype, 'baseURI')?.get?.call(link);
      try {
        return new URL(href, String(base)).href;
      } catch {
        return href;
      }
    },
    undefined,
    { timeout },
  );
}

/**
 * A download the browser keeps receiving (a form POST, a blob the page made): read once it is
 * complete, capped, and cancelled when it does not complete in time.
 */
async function readBrowserDownload(context: ActionContext, download: Download): Promise<Buffer> {
  const timeoutMs = context.limits.navigationTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AutomationError(AUTOMATION_CODES.TIMEOUT, `The download did not finish within ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
  });
  try {
    const stream = await Promise.race([download.createReadStream(), timedOut]);
    return await readCapped(stream, context.limits.fileMaxBytes);
  } catch (error) {
    await download.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Clicks the element and keeps the download it starts. A GET download is cancelled in the browser
 * and fetched again by fetchFile, which stops at the size cap while the body streams in; the
 * browser's own download can only be read once it has ended, however large it grew.
 */
async function clickAndDownload(context: ActionContext, element: Locator): Promise<KeptFile> {
  const timeout = elementTimeoutOf(context);
  const methods = new Map<string, string>();
  const onRequest = (request: Request) => methods.set(request.url(), request.method());
  context.page.on('request', onRequest);
  try {
    const [download] = await Promise.all([
      context.page.waitForEvent('download', { timeout }),
      element.click({ timeout }),
    ]);
    const url = download.url();
    const fileName = download.suggestedFilename() || fileNameOf(url, undefined);
    if (/^https?:/u.test(url) && (methods.get(url) ?? 'GET') === 'GET') {
      await download.cancel();
      const fetched = await fetchFileOfStep(context, url);
      return { ...fetched, fileName };
    }
    const content = await readBrowserDownload(context, download);
    return { fileName, mimeType: mimeOf(fileName), content };
  } finally {
    context.page.off('request', onRequest);
  }
}

/**
 * GET_FILE: a link (the element, its enclosing or its inner anchor) is fetched with the page's
 * cookies; an element without a link is clicked and the download it starts is kept. Either way
 * the body is read within the size cap. The content goes to hooks.keepFile; the step value
 * describes it.
 */
export async function getFile(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  const timeout = elementTimeoutOf(context);
  const href = await hrefOf(element, timeout);
  const file =
    href && /^https?:/u.test(href)
      ? await fetchFileOfStep(context, href)
      : await clickAndDownload(context, element);
  await context.hooks.keepFile?.(file);
  return {
    value: { kind: 'file', fileName: file.fileName, mimeType: file.mimeType, size: file.content.length },
    element,
  };
}
