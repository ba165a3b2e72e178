import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NavigationRefusedError, type ResolveAll } from '@pagewright/automation';
import { loadConfig } from '../config.js';
import { engineEgress, importEngineEgress, operatorEngineEgress } from './engine-policy.js';

/** A local service: every request it hears is one the policy let through. */
const heard: string[] = [];
let local: http.Server;
let port: number;

beforeAll(async () => {
  local = http.createServer((request, response) => {
    heard.push(`${request.method} ${request.headers.host} ${request.url}`);
    response.setHeader('content-type', 'application/json');
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
  port = (local.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => local.close(resolve)));

const PUBLIC_ONLY = { allowPrivateNetworks: false, allowedHosts: [] };
const init = () => ({
  method: 'GET' as const,
  headers: {},
  body: undefined,
  redirect: 'manual' as const,
  signal: AbortSignal.timeout(5000),
});
const baseEnv = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/unused',
  REDIS_URL: 'redis://127.0.0.1:6379',
};

describe('the F-engine egress (issue 38)', () => {
  it('allows an engine by its exact origin only: another port of the same host is refused', async () => {
    const egress = engineEgress(PUBLIC_ONLY, [`http://127.0.0.1:${port}`]);
    await egress.assertAllowed(`http://127.0.0.1:${port}/api/connector/v1/sessions`);
    const answer = await egress.fetch(new URL(`http://127.0.0.1:${port}/allowed`), init());
    expect(answer.status).toBe(200);
    for (const other of [
      `http://127.0.0.1:${port + 1}/api/connector/v1/sessions`,
      `https://127.0.0.1:${port}/`,
      'http://127.0.0.1/',
      'http://[::127.0.0.1]/',
      'file:///etc/passwd',
    ])
      await expect(egress.assertAllowed(other), other).rejects.toBeInstanceOf(NavigationRefusedError);
  });

  it('judges a name again when the socket connects: a DNS answer that turns private is refused', async () => {
    heard.length = 0;
    let lookups = 0;
    // The first answer (the check before the call) is public; the next (the connection's) is not.
    const rebinding: ResolveAll = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const egress = engineEgress(PUBLIC_ONLY, [], rebinding);
    const url = new URL(`http://engine.rebind.test:${port}/api/connector/v1/sessions`);
    await egress.assertAllowed(url.toString());
    const error: unknown = await egress.fetch(url, init()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NavigationRefusedError);
    expect((error as NavigationRefusedError).reason).toContain('non-public address 127.0.0.1');
    expect(lookups).toBe(2);
    expect(heard).toEqual([]);
  });

  it('trusts the configured import engine for imports only, never for addresses operators type', async () => {
    const config = loadConfig({ ...baseEnv, FENGINE_URL: `http://127.0.0.1:${port}/engine` });
    await importEngineEgress(config).assertAllowed(
      `http://127.0.0.1:${port}/engine/api/connector/v1/sessions`,
    );
    await expect(
      operatorEngineEgress(config).assertAllowed(`http://127.0.0.1:${port}/engine/api/connector/v1/sessions`),
    ).rejects.toBeInstanceOf(NavigationRefusedError);
  });

  it('takes origins, never bare hosts, and refuses to start on the old host list', () => {
    expect(
      loadConfig({ ...baseEnv, FENGINE_ALLOWED_ORIGINS: 'http://10.0.0.5:8090, https://engine.lan' })
        .FENGINE_ALLOWED_ORIGINS,
    ).toEqual(['http://10.0.0.5:8090', 'https://engine.lan']);
    for (const entry of ['127.0.0.1', '10.0.0.5:8090', 'http://10.0.0.5:8090/engine', 'ftp://10.0.0.5'])
      expect(() => loadConfig({ ...baseEnv, FENGINE_ALLOWED_ORIGINS: entry }), entry).toThrow(
        /is not an origin/u,
      );
    expect(() => loadConfig({ ...baseEnv, FENGINE_ALLOWED_HOSTS: '127.0.0.1' })).toThrow(
      /FENGINE_ALLOWED_HOSTS is no longer read/u,
    );
  });
});
