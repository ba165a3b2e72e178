import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/**
 * Browser protections on every answer (the SPA, the API, the API docs), through helmet. The
 * Content-Security-Policy is what the built SPA and the swagger UI need and no more: scripts only
 * from this origin; inline styles (emotion/MUI and CodeMirror inject <style> tags); images from
 * data: and blob: URLs (builder frames, step pictures); fetches and the live WebSocket to this
 * origin. No page may frame ours, and no URL (some carry tokens) leaves as a Referer.
 * HSTS is left to the TLS terminator: the product is also served over plain HTTP on a LAN.
 * apps/web/nginx.conf sends the same policy for the pages nginx serves in docker compose.
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  const { host } = new URL(app.config.PUBLIC_URL);
  await app.register(helmet, {
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
  // A PDF opened in a tab is shown by the browser's viewer, a document of its own that the page
  // policy would block (object-src 'none', no inline styles for its frame): PDFs go without it.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('application/pdf'))
      reply.removeHeader('content-security-policy');
    return payload;
  });
});
