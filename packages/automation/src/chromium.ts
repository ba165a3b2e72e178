/**
 * How Pagewright starts Chromium everywhere (worker, e2e tests, benchmarks): Debian's Chromium at a
 * configurable path, headless, with the background services off. On hosts with a closed network
 * those services otherwise flood the log with refused connections at every start.
 *
 * The default is Debian's chromium-headless-shell, the headless-only build that Playwright itself
 * runs for headless tests: the same Blink and V8, without the full browser's UI layers, so it starts
 * in a third of the time and takes about half the CPU per page (docs/decisions.md). The full
 * /usr/bin/chromium works too (CHROMIUM_PATH). The binary itself, not Debian's /usr/bin wrapper: that
 * one starts it from a shell without `exec`, so a signal meant for the browser reached only the shell.
 */
export const DEFAULT_CHROMIUM_PATH = '/usr/lib/chromium/chromium-headless-shell';

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
