import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/** A delivery attempt's wait for the receiver's answer, connection included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer (its start goes into the delivery's error). */
export const WEBHOOK_RESPONSE_READ_MAX_BYTES = 4096;

export interface WebhookResponse {
  statusCode: number;
  /** The first bytes of the answer, as text. */
  bodyStart: string;
}

/**
 * POSTs a delivery's JSON body: redirects are not followed (a 3xx is an answer like any non-2xx:
 * following one would reach an address the policy never judged), at most WEBHOOK_TIMEOUT_MS in
 * all, and only the first WEBHOOK_RESPONSE_READ_MAX_BYTES of the answer are read. `lookup` judges
 * the address the socket connects to (the egress policy's connection-time half).
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  lookup: LookupFunction | undefined,
): Promise<WebhookResponse> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Pagewright-Webhooks/1',
        },
        ...(lookup ? { lookup } : {}),
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          response.destroy();
          resolve({
            statusCode: response.statusCode ?? 0,
            bodyStart: Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_READ_MAX_BYTES).toString('utf8'),
          });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= WEBHOOK_RESPONSE_READ_MAX_BYTES) finish();
        });
        response.on('end', finish);
        response.on('error', finish);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
