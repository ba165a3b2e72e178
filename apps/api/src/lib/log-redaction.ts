import type { FastifyRequest } from 'fastify';

export const REDACTED = '[redacted]';

/**
 * Path segments whose next segment is a credential, in the API's routes and the SPA's (the API logs
 * both): /extractor/token/:token, /auth/login-token/:token, /file/:token, /user/confirmation/:token,
 * /screen-share…/:token, /messaging-fengine/:token, /message/token/:token.
 */
const SECRET_FOLLOWS = new Set([
  'token',
  'login-token',
  'file',
  'confirmation',
  'screen-share',
  'screen-share-viewer',
  'screen-share-executor',
  'screen-share-fengine',
  'messaging-fengine',
]);

/**
 * Query parameters that carry a credential: ?accessToken= (WebSocket), ?token= (confirmation),
 * ?signature= (a template page image's signed address, which opens the image until it expires)...
 */
const SECRET_QUERY_NAME = /token|password|secret|signature/i;

/**
 * The request URL as it may be logged: the segment after each credential-bearing segment, and the
 * value of each credential-bearing query parameter, become [redacted]. Matching ignores case, so a
 * mistyped route that 404s is redacted too.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  let isSecretNext = false;
  const segments = path.split('/').map((segment) => {
    if (segment === '') return segment;
    if (isSecretNext) {
      isSecretNext = false;
      return REDACTED;
    }
    isSecretNext = SECRET_FOLLOWS.has(segment.toLowerCase());
    return segment;
  });
  if (queryStart === -1) return segments.join('/');
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const nameEnd = pair.indexOf('=');
      if (nameEnd === -1) return pair;
      const name = pair.slice(0, nameEnd);
      return SECRET_QUERY_NAME.test(safeDecode(name)) ? `${name}=${REDACTED}` : pair;
    });
  return `${segments.join('/')}?${query.join('&')}`;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The logger's one request serializer (Fastify's fields, URL redacted): every logged request goes
 * through it. Headers are not logged; the logger's redact paths cover them wherever else they go.
 */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** pino redact paths: credentials in headers and bodies, should anything log them. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.body.password',
  'req.body.refreshToken',
  // POST /auth/fengine/exchange: the F-engine's sign-in JWT.
  'req.body.token',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
];
