import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { BrowserContext } from 'playwright-core';

/**
 * Who a recorded flow may reach. By default only public addresses: a flow must not become a way
 * into the host's own network (loopback, private, link-local such as cloud metadata at
 * 169.254.169.254). Tests and intranet deployments list what they allow.
 */
export interface NavigationPolicy {
  /** Allow every private, loopback and link-local address (intranet deployments). */
  allowPrivateNetworks: boolean;
  /** Host names or IP literals allowed even when private (e.g. the test fixture host). */
  allowedHosts: readonly string[];
}

export const PUBLIC_ONLY_POLICY: NavigationPolicy = { allowPrivateNetworks: false, allowedHosts: [] };

export class NavigationRefusedError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`Navigation to ${url} refused: ${reason}`);
    this.name = 'NavigationRefusedError';
  }
}

/**
 * Public unicast only. An IPv6 address that carries an IPv4 one is judged as that IPv4 address:
 * IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form (::a.b.c.d, which ipaddr.js
 * calls unicast; `[::127.0.0.1]` reached loopback, issue 38).
 */
export function isPublicAddress(address: string): boolean {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const ipv6 = parsed as ipaddr.IPv6;
    const parts = ipv6.parts;
    const isCompatible = parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1);
    if (ipv6.isIPv4MappedAddress()) parsed = ipv6.toIPv4Address();
    else if (isCompatible) parsed = ipaddr.fromByteArray(ipv6.toByteArray().slice(12));
  }
  return parsed.range() === 'unicast';
}

type Resolve = (hostname: string) => Promise<string[]>;
const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address);

/**
 * Throws NavigationRefusedError unless `url` is http(s) and every address its host resolves to is
 * allowed by the policy. (A host that resolves to one public and one private address is refused:
 * the browser may pick either.)
 */
export async function assertNavigationAllowed(
  url: string,
  policy: NavigationPolicy,
  resolve: Resolve = resolveAll,
): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NavigationRefusedError(url, 'not a valid URL');
  }
  if (parsed.protocol === 'about:' || parsed.protocol === 'data:' || parsed.protocol === 'blob:') return;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new NavigationRefusedError(url, `the ${parsed.protocol} scheme is not allowed`);
  }
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
  if (policy.allowPrivateNetworks || policy.allowedHosts.includes(hostname)) return;
  const addresses = ipaddr.isValid(hostname) ? [hostname] : await resolve(hostname).catch(() => []);
  if (addresses.length === 0) return; // Unresolvable: the browser fails with its own network error.
  const blocked = addresses.find((address) => !isPublicAddress(address));
  if (blocked)
    throw new NavigationRefusedError(url, `${hostname} resolves to the non-public address ${blocked}`);
}

/**
 * Applies the policy to every request of a browser context (documents, frames, subresources,
 * fetches), so neither a recorded NAVIGATE nor a page's own links or scripts reach a refused
 * address. Verdicts are cached per host for a minute.
 */
export async function installNavigationGuard(
  context: BrowserContext,
  policy: NavigationPolicy,
  onRefused?: (error: NavigationRefusedError) => void,
): Promise<void> {
  const verdicts = new Map<string, { isAllowed: boolean; reason?: NavigationRefusedError; until: number }>();
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    const host = new URL(url).host;
    const now = Date.now();
    let verdict = verdicts.get(host);
    if (!verdict || verdict.until < now) {
      try {
        await assertNavigationAllowed(url, policy);
        verdict = { isAllowed: true, until: now + 60_000 };
      } catch (error) {
        if (!(error instanceof NavigationRefusedError)) throw error;
        verdict = { isAllowed: false, reason: error, until: now + 60_000 };
      }
      verdicts.set(host, verdict);
    }
    if (verdict.isAllowed) return route.continue();
    if (verdict.reason) onRefused?.(verdict.reason);
    return route.abort('blockedbyclient');
  });
}
