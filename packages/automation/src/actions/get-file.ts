import type { Locator, Page } from 'playwright-core';
import { AutomationError } from '../flow/automation-error.js';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import type { KeptFile } from '../flow/flow-types.js';
import { type NavigationPolicy, assertNavigationAllowed } from '../safety/navigation-guard.js';
import {
  type ActionContext,
  type ActionOutcome,
  elementTimeoutOf,
  requireElement,
} from './action-context.js';

const MIME_BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  txt: 'text/plain',
  json: 'application/json',
  xml: 'application/xml',
  zip: 'application/zip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

function mimeOf(fileName: string): string {
  const extension = /\.([a-z0-9]+)$/iu.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return MIME_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

function fileNameOf(url: string, contentDisposition: string | undefined): string {
  const fromHeader = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/iu.exec(contentDisposition ?? '')?.[1];
  if (fromHeader) return decodeURIComponent(fromHeader.trim());
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : 'download';
  } catch {
    return 'download';
  }
}

function tooLarge(size: number, maxBytes: number): AutomationError {
  return new AutomationError(
    AUTOMATION_CODES.INVALID_ARGUMENT,
    `The file is ${size} bytes, over the ${maxBytes} bytes limit`,
  );
}

const MAX_REDIRECTS = 5;

/**
 * Fetches a URL with the page's cookies (its browser context's request API), within the size cap.
 * That API does not pass through the context's navigation guard, so the policy is checked here for
 * the URL and for every redirect it leads to.
 */
export async function fetchFile(
  page: Page,
  firstUrl: string,
  policy: NavigationPolicy,
  maxBytes: number,
  timeoutMs: number,
): Promise<KeptFile> {
  let url = firstUrl;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    await assertNavigationAllowed(url, policy);
    const response = await page.context().request.get(url, { timeout: timeoutMs, maxRedirects: 0 });
    try {
      const headers = response.headers();
      const location = headers['location'];
      if (response.status() >= 300 && response.status() < 400 && location) {
        url = new URL(location, url).href;
        continue;
      }
      if (!response.ok()) {
        throw new AutomationError(AUTOMATION_CODES.UNKNOWN_ERROR, `GET ${url} answered ${response.status()}`);
      }
      const declared = Number(headers['content-length'] ?? 0);
      if (declared > maxBytes) throw tooLarge(declared, maxBytes);
      const content = await response.body();
      if (content.length > maxBytes) throw tooLarge(content.length, maxBytes);
      const fileName = fileNameOf(url, headers['content-disposition']);
      const mimeType = headers['content-type']?.split(';')[0]?.trim() || mimeOf(fileName);
      return { fileName, mimeType, content };
    } finally {
      await response.dispose();
    }
  }
  throw new AutomationError(
    AUTOMATION_CODES.UNKNOWN_ERROR,
    `GET ${firstUrl} redirected more than ${MAX_REDIRECTS} times`,
  );
}

async function readCapped(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    if (size > maxBytes) throw tooLarge(size, maxBytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

async function hrefOf(element: Locator, timeout: number): Promise<string | null> {
  return element.evaluate(
    (node: {
      closest(selector: string): { href?: string } | null;
      querySelector(selector: string): { href?: string } | null;
    }) => (node.closest('a[href]') ?? node.querySelector('a[href]'))?.href ?? null,
    undefined,
    { timeout },
  );
}

async function clickAndDownload(context: ActionContext, element: Locator): Promise<KeptFile> {
  const timeout = elementTimeoutOf(context);
  const [download] = await Promise.all([
    context.page.waitForEvent('download', { timeout }),
    element.click({ timeout }),
  ]);
  const stream = await download.createReadStream();
  const content = await readCapped(stream, context.limits.fileMaxBytes);
  const fileName = download.suggestedFilename() || fileNameOf(download.url(), undefined);
  return { fileName, mimeType: mimeOf(fileName), content };
}

/**
 * GET_FILE: a link (the element, its enclosing or its inner anchor) is fetched with the page's
 * cookies; an element without a link is clicked and the browser download it starts is read. The
 * content goes to hooks.keepFile; the step value describes it.
 */
export async function getFile(context: ActionContext): Promise<ActionOutcome> {
  const element = await requireElement(context);
  const timeout = elementTimeoutOf(context);
  const href = await hrefOf(element, timeout);
  const file =
    href && /^https?:/u.test(href)
      ? await fetchFile(
          context.page,
          href,
          context.navigationPolicy,
          context.limits.fileMaxBytes,
          context.limits.navigationTimeoutMs,
        )
      : await clickAndDownload(context, element);
  await context.hooks.keepFile?.(file);
  return {
    value: { kind: 'file', fileName: file.fileName, mimeType: file.mimeType, size: file.content.length },
    element,
  };
}
