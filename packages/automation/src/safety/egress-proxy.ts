import dns, { type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestError, Server } from 'proxy-chain';
import { type NavigationPolicy, NavigationRefusedError, isPublicAddress } from './navigation-guard.js';

/** Resolves a host name to every address it has (dns.lookup with all: true). */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolveAll: ResolveAll = (hostname) => dns.promises.lookup(hostname, { all: true });

export interface EgressProxy {
  /** For Playwright's `proxy.server`. */
  readonly url: string;
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  onRefused?: ((error: NavigationRefusedError) => void) | undefined;
  /** Tests inject a resolver whose answer changes between calls (DNS rebinding). */
  resolveAll?: ResolveAll | undefined;
}

/**
 * The connection-time half of the navigation policy: a lookup that refuses a name resolving to a
 * non-public address, handed to the socket that then connects to exactly the address it checked.
 * A check done earlier (the route guard) cannot stop a name whose DNS answer changes between the
 * check and the browser's own lookup; this one can, because there is only one lookup.
 */
export function policyLookup(
  policy: NavigationPolicy,
  resolveAll: ResolveAll,
  onRefused?: (error: NavigationRefusedError) => void,
): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname).then(
      (all) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const addresses = family ? all.filter((address) => address.family === family) : all;
        const blocked = addresses.find((address) => !isPublicAddress(address.address));
        if (blocked) {
          const refused = new NavigationRefusedError(
            hostname,
            `${hostname} resolves to the non-public address ${blocked.address}`,
          );
          onRefused?.(refused);
          callback(Object.assign(refused, { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/**
 * A forward proxy on 127.0.0.1 that all of Chromium's traffic goes through (Playwright routes
 * loopback through it too): documents, subresources, fetches, WebSockets and service workers.
 * Each connection's host is judged by the navigation policy when the connection is made: an IP
 * literal at once, a name by the one lookup the connection uses. The route guard still gives a
 * refused navigation its clear error first; this closes what it cannot see (DNS rebinding,
 * WebSockets).
 */
export async function startEgressProxy(
  policy: NavigationPolicy,
  options: EgressProxyOptions = {},
): Promise<EgressProxy> {
  const lookup = policyLookup(policy, options.resolveAll ?? systemResolveAll, options.onRefused);
  const server = new Server({
    host: '127.0.0.1',
    port: 0,
    prepareRequestFunction: ({ hostname, port }) => {
      const host = hostname.replace(/^\[|\]$/g, '');
      if (policy.allowPrivateNetworks || policy.allowedHosts.includes(host)) return {};
      if (ipaddr.isValid(host)) {
        if (isPublicAddress(host)) return {};
        const refused = new NavigationRefusedError(`${host}:${port}`, `${host} is not a public address`);
        options.onRefused?.(refused);
        throw new RequestError(refused.message, 403);
      }
      return { dnsLookup: lookup as unknown as typeof dns.lookup };
    },
  });
  await server.listen();
  return {
    url: `http://127.0.0.1:${server.port}`,
    close: () => server.close(true),
  };
}
