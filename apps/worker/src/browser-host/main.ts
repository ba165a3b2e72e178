import { pino } from 'pino';
import { loadBrowserHostConfig } from '../config.js';
import { startBrowserHost } from './browser-host.js';

/**
 * `./pagewright browser-host`: a Chromium for workers on other machines (docs/scaling.md). Workers
 * list it in BROWSER_ENDPOINTS as `name=ws://:TOKEN@this-host:PORT/playwright`.
 */
const config = loadBrowserHostConfig();
const log = pino({ level: config.LOG_LEVEL, base: { service: 'browser-host', pid: process.pid } });

const host = await startBrowserHost({
  chromiumPath: config.CHROMIUM_PATH,
  navigationPolicy: {
    allowPrivateNetworks: config.NAVIGATION_ALLOW_PRIVATE_NETWORKS,
    allowedHosts: config.NAVIGATION_ALLOWED_HOSTS,
  },
  bind: config.BROWSER_HOST_BIND,
  port: config.BROWSER_HOST_PORT,
  token: config.BROWSER_HOST_TOKEN,
  onNavigationRefused: (error) => log.warn({ url: error.url, reason: error.reason }, 'navigation refused'),
});
log.info(
  {
    url: host.url,
    chromiumPid: host.chromiumPid,
    allowPrivateNetworks: config.NAVIGATION_ALLOW_PRIVATE_NETWORKS,
  },
  'browser host listening',
);

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'browser host stopping');
    void host.close().finally(() => process.exit(0));
  });
