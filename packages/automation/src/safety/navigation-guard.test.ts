import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { chromiumLaunchOptions } from '../chromium.js';
import {
  NavigationRefusedError,
  PUBLIC_ONLY_POLICY,
  assertNavigationAllowed,
  installNavigationGuard,
  isPublicAddress,
} from './navigation-guard.js';

describe('which addresses are public', () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:93.184.216.34', true],
    // IPv4-compatible IPv6 (issue 38): judged by the IPv4 address it carries.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::10.0.0.5', false],
    ['::169.254.169.254', false],
    ['::93.184.216.34', true],
    ['::', false],
  ])('%s → %s', (address, expected) => expect(isPublicAddress(address)).toBe(expected));
});

describe('assertNavigationAllowed', () => {
  const resolveTo = (addresses: string[]) => async () => addresses;

  it('refuses loopback, private and metadata targets, and other schemes', async () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      await expect(assertNavigationAllowed(url, PUBLIC_ONLY_POLICY)).rejects.toBeInstanceOf(
        NavigationRefusedError,
      );
    }
    await expect(assertNavigationAllowed('file:///etc/passwd', PUBLIC_ONLY_POLICY)).rejects.toThrow(/scheme/);
    await expect(
      assertNavigationAllowed('http://intranet.example/', PUBLIC_ONLY_POLICY, resolveTo(['10.0.0.5'])),
    ).rejects.toThrow(/10\.0\.0\.5/);
    await expect(
      assertNavigationAllowed(
        'http://mixed.example/',
        PUBLIC_ONLY_POLICY,
        resolveTo(['93.184.216.34', '127.0.0.1']),
      ),
    ).rejects.toThrow(/127\.0\.0\.1/);
  });

  it('allows public hosts, listed hosts and private networks when configured', async () => {
    await assertNavigationAllowed(
      'https://public.example/',
      PUBLIC_ONLY_POLICY,
      resolveTo(['93.184.216.34']),
    );
    await assertNavigationAllowed('http://127.0.0.1:3000/', {
      allowPrivateNetworks: false,
      allowedHosts: ['127.0.0.1'],
    });
    await assertNavigationAllowed('http://10.0.0.5/', { allowPrivateNetworks: true, allowedHosts: [] });
    await assertNavigationAllowed('about:blank', PUBLIC_ONLY_POLICY);
  });
});

describe('the guard inside a real browser context', () => {
  let browser: Browser;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    browser = await chromium.launch(chromiumLaunchOptions(process.env.CHROMIUM_PATH));
    server = http.createServer((_req, res) => res.end('<h1>internal</h1>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await browser.close();
    server.close();
  });

  it('blocks a page reaching a loopback service, and lets it through when the host is allowed', async () => {
    const refused = await browser.newContext();
    const refusals: string[] = [];
    await installNavigationGuard(refused, PUBLIC_ONLY_POLICY, (error) => refusals.push(error.url));
    const page = await refused.newPage();
    await expect(page.goto(`http://127.0.0.1:${port}/`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
    expect(refusals).toEqual([`http://127.0.0.1:${port}/`]);
    await refused.close();

    const allowed = await browser.newContext();
    await installNavigationGuard(allowed, { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'] });
    const allowedPage = await allowed.newPage();
    await allowedPage.goto(`http://127.0.0.1:${port}/`);
    expect(await allowedPage.textContent('h1')).toBe('internal');
    await allowed.close();
  });
});
