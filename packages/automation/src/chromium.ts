/**
 * How Pagewright starts Chromium everywhere (worker, e2e tests, benchmarks): Debian's Chromium at a
 * configurable path, headless, with the background services off. On hosts with a closed network
 * those services otherwise flood the log with refused connections at every start.
 */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

export interface ChromiumLaunchOptions {
  executablePath: string;
  args: string[];
}

export function chromiumLaunchOptions(executablePath: string = DEFAULT_CHROMIUM_PATH): ChromiumLaunchOptions {
  return { executablePath, args: [...CHROMIUM_ARGS] };
}
