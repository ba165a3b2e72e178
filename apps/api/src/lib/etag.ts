import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether an If-None-Match header names `etag` (a list, weak or not, or `*`). */
function isNamed(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed === etag || trimmed === `W/${etag}`;
  });
}

/**
 * Answers a JSON body the caller may already hold: with its ETag (a hash of the exact bytes) and
 * `private, no-cache`, so a browser keeps it and asks again with If-None-Match; a poll that finds
 * the same bytes gets 304 and no body. The ETag is the body's own hash, so a 304 can only confirm
 * what this caller would have been sent.
 */
export function sendJsonUnlessUnchanged(request: FastifyRequest, reply: FastifyReply, json: string) {
  const etag = `"${hash('sha1', json, 'base64url')}"`;
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  if (isNamed(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(json);
}
