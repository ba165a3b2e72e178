import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { Page } from 'playwright-core';
import { AutomationError } from '../flow/automation-error.js';
import { AUTOMATION_CODES } from '../flow/classify-error.js';
import type { KeptFile } from '../flow/flow-types.js';
import { policyLookup, systemResolveAll } from '../safety/egress-proxy.js';
import { type NavigationPolicy, assertNavigationAllowed } from '../safety/navigation-guard.js';

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

export function mimeOf(fileName: string): string {
  const extension = /\.([a-z0-9]+)$/iu.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return MIME_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

export function fileNameOf(url: string, contentDisposition: string | undefined): string {
  const fromHeader = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/iu.exec(contentDisposition ?? '')?.[1];
  if (fromHeader) return decodeURIComponent(fromHeader.trim());
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : 'download';
  } catch {
    return 'download';
  }
}

export function declaredTooLarge(size: number, maxBytes: number): AutomationError {
  return new AutomationError(
    AUTOMATION_CODES.INVALID_ARGUMENT,
    `The file is ${size} bytes, over the ${maxBytes} bytes limit`,
  );
}

function streamedTooLarge(maxBytes: number): AutomationError {
  return new AutomationError(
    AUTOMATION_CODES.INVALID_ARGUMENT,
    `The file is over the ${maxBytes} bytes limit; the download was stopped there`,
  );
}

/**
 * Reads a body chunk by chunk and stops reading (destroying the stream) as soon as it passes
 * `maxBytes`: memory never holds more than the limit, whatever the sender keeps sending.
 */
export async function readCapped(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    if (size > maxBytes) throw streamedTooLarge(maxBytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, size);
}

export interface FetchFileOptions {
  policy: NavigationPolicy;
  maxBytes: number;
  timeoutMs: number;
  /** The worker's egress proxy (http://127.0.0.1:port), when Chromium goes through one. */
  proxyUrl?: string | undefined;
}

const MAX_REDIRECTS = 5;

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

function onceResponse(request: http.ClientRequest): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
}

/** A TLS socket to `url`'s origin through the proxy's CONNECT tunnel (the proxy judges the host). */
function tunnel(url: URL, proxy: URL, signal: AbortSignal): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const authority = `${url.hostname}:${portOf(url)}`;
    const connect = http.request({
      host: proxy.hostname,
      port: portOf(proxy),
      method: 'CONNECT',
      path: authority,
      headers: { host: authority },
      agent: false,
      signal,
    });
    connect.once('connect', (answer, socket) => {
      if (answer.statusCode !== 200) {
        socket.destroy();
        reject(new Error(`The egress proxy refused ${authority} (${answer.statusCode})`));
        return;
      }
      const host = hostOf(url);
      resolve(tls.connect({ socket, ...(net.isIP(host) ? {} : { servername: host }) }));
    });
    connect.once('error', reject);
    connect.end();
  });
}

/** One GET, without following redirects: through the proxy when there is one, else directly. */
async function get(
  url: URL,
  headers: OutgoingHttpHeaders,
  options: FetchFileOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const proxy = options.proxyUrl ? new URL(options.proxyUrl) : undefined;
  if (!proxy) {
    // Judged where the socket connects too, as the egress proxy would (DNS rebinding).
    const lookup = policyLookup(options.policy, systemResolveAll);
    const client = url.protocol === 'https:' ? https : http;
    return onceResponse(client.request(url, { method: 'GET', headers, lookup, agent: false, signal }));
  }
  if (url.protocol === 'http:') {
    return onceResponse(
      http.request({
        host: proxy.hostname,
        port: portOf(proxy),
        method: 'GET',
        path: url.href,
        headers: { ...headers, host: url.host },
        agent: false,
        signal,
      }),
    );
  }
  const socket = await tunnel(url, proxy, signal);
  return onceResponse(
    https.request(url, { method: 'GET', headers, agent: false, signal, createConnection: () => socket }),
  );
}

async function requestHeaders(page: Page, url: string): Promise<OutgoingHttpHeaders> {
  const cookies = await page.context().cookies(url);
  const userAgent = await page.evaluate<string>('navigator.userAgent').catch(() => undefined);
  return {
    accept: '*/*',
    // A compressed body would be inflated past the limit after it was counted.
    'accept-encoding': 'identity',
    ...(userAgent ? { 'user-agent': userAgent } : {}),
    ...(cookies.length > 0
      ? { cookie: cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ') }
      : {}),
  };
}

/**
 * Downloads a URL with the page's cookies, streaming it and stopping at the size cap (Playwright's
 * request API would hold the whole body in memory first). The navigation policy is checked for the
 * URL and every redirect it leads to, and the connection goes through the worker's egress proxy
 * when it runs one (else through the policy's own lookup), exactly as the browser's would.
 */
export async function fetchFile(page: Page, firstUrl: string, options: FetchFileOptions): Promise<KeptFile> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  let url = firstUrl;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      await assertNavigationAllowed(url, options.policy);
      const response = await get(new URL(url), await requestHeaders(page, url), options, controller.signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.destroy();
        url = new URL(location, url).href;
        continue;
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        throw new AutomationError(AUTOMATION_CODES.UNKNOWN_ERROR, `GET ${url} answered ${status}`);
      }
      const declared = Number(response.headers['content-length'] ?? 0);
      if (declared > options.maxBytes) {
        response.destroy();
        throw declaredTooLarge(declared, options.maxBytes);
      }
      const content = await readCapped(response, options.maxBytes);
      const fileName = fileNameOf(url, response.headers['content-disposition']);
      const mimeType = response.headers['content-type']?.split(';')[0]?.trim() || mimeOf(fileName);
      return { fileName, mimeType, content };
    }
    throw new AutomationError(
      AUTOMATION_CODES.UNKNOWN_ERROR,
      `GET ${firstUrl} redirected more than ${MAX_REDIRECTS} times`,
    );
  } catch (error) {
    if (controller.signal.aborted && !(error instanceof AutomationError)) {
      throw new AutomationError(
        AUTOMATION_CODES.TIMEOUT,
        `GET ${url} did not finish within ${options.timeoutMs} ms`,
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
