import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/**
 * Browser protections on every answer (the SPA, the API, the API docs), through helmet. The
 * Content-Security-Policy is what the built SPA and the swagger UI need and no more: scripts only
 * from this origin; inline styles (emotion/MUI and CodeMirror inject <style> tags); images from
 * data: and blob: URLs (builder frames, step pictures); fetches and the live WebSocket to this
 * origin. No page may frame ours, and no URL (some carry tokens) leaves as a Referer.
 * HSTS is left to the TLS terminator: the product is also served over plain HTTP on a LAN.
 * apps/web/nginx.conf sends the same policy for the pages nginx serves in docker compose.
 * The headers are worked out once (helmetHeaders) and set on every answer.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  const { host } = new URL(app.config.PUBLIC_URL);
  const headers = await helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // 'self' covers ws(s) of this origin in CSP3 browsers; PUBLIC_URL's host for the others.
        connectSrc: ["'self'", `ws://${host}`, `wss://${host}`],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  // A PDF opened in a tab is shown by the browser's viewer, a document of its own that the page
  // policy would block (object-src 'none', no inline styles for its frame): PDFs go without it.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('application/pdf'))
      reply.removeHeader('content-security-policy');
    done(null, payload);
  });
});

/** Headers of every answer that are not helmet's to set: the framework's own. */
const FRAMEWORK_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type']);

/**
 * The headers helmet sets with `options`, worked out once. @fastify/helmet builds a new helmet
 * middleware (and parses the whole policy again) for every request, 3–5 % of the API's CPU under
 * load; the headers never change, so they are read from one answer of a probe app and every
 * request gets the same set.
 */
async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  probe.get('/', (_request, reply) => reply.send());
  try {
    const answer = await probe.inject('/');
    return Object.fromEntries(
      Object.entries(answer.headers)
        .filter(([name]) => !FRAMEWORK_HEADERS.has(name))
        .map(([name, value]) => [name, String(value)]),
    );
  } finally {
    await probe.close();
  }
}
