import {
  assertNavigationAllowed,
  NavigationRefusedError,
  policyLookup,
  systemResolveAll,
  type NavigationPolicy,
  type ResolveAll,
} from '@pagewright/automation';
import { Agent, fetch as undiciFetch } from 'undici';
import type { WorkerConfig } from '../config.js';
import type { EngineFetch } from './engine-connector.js';

type EnginePolicyConfig = Pick<
  WorkerConfig,
  'NAVIGATION_ALLOW_PRIVATE_NETWORKS' | 'NAVIGATION_ALLOWED_HOSTS' | 'FENGINE_ALLOWED_ORIGINS'
>;

/** How the worker reaches an F-engine: the check before a call, and the fetch that makes it. */
export interface EngineEgress {
  /** Throws NavigationRefusedError (its `reason` goes into the connector's sentence). */
  assertAllowed: (url: string) => Promise<void>;
  /** Connects only to addresses the policy allows, judged again when the socket connects. */
  fetch: EngineFetch;
}

/**
 * Where the worker may reach an F-engine (issue 38): the egress policy of navigation (a flow cannot
 * reach the host's own network, so neither can an engine address an operator types), plus exact
 * origins (scheme, host and port) the self-hoster trusts even on a private network. Never a whole
 * host: `127.0.0.1` would let anyone signed in POST to every local port (Redis, Postgres, maildev)
 * and read how it answered.
 *
 * A name is judged twice: before the call (for the sentence), and by the lookup of the socket that
 * makes it, so a DNS answer that changes in between (rebinding) cannot reach a private address.
 * @internal The worker takes operatorEngineEgress or importEngineEgress; tests give `resolveAll`.
 */
export function engineEgress(
  policy: NavigationPolicy,
  trustedOrigins: readonly string[],
  resolveAll: ResolveAll = systemResolveAll,
): EngineEgress {
  const trusted = new Set(trustedOrigins.map((origin) => new URL(origin).origin));
  const isTrusted = (url: URL) =>
    trusted.has(url.origin) ||
    policy.allowPrivateNetworks ||
    policy.allowedHosts.includes(url.hostname.replace(/^\[|\]$/g, ''));
  // An address the operator allowed is reached as it resolves; any other only through the policy.
  const direct = new Agent();
  const guarded = new Agent({ connect: { lookup: policyLookup(policy, resolveAll) } });
  const resolve = async (hostname: string) => (await resolveAll(hostname)).map((entry) => entry.address);
  return {
    async assertAllowed(url) {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw new NavigationRefusedError(url, `the ${target.protocol} scheme is not allowed`);
      if (trusted.has(target.origin)) return;
      await assertNavigationAllowed(url, policy, resolve);
    },
    async fetch(url, init) {
      try {
        const response = await undiciFetch(url, { ...init, dispatcher: isTrusted(url) ? direct : guarded });
        // undici's Response is the one Node's own fetch returns; only its declared type differs.
        return response as unknown as Response;
      } catch (error) {
        // The lookup's refusal travels as the connection error's cause: say why, as the check does.
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof NavigationRefusedError) throw cause;
        throw error;
      }
    },
  };
}

/**
 * Engine calls of insertor steps, whose address an operator types (ASK_F_ENGINE_URL): navigation's
 * policy plus FENGINE_ALLOWED_ORIGINS.
 */
export function operatorEngineEgress(config: EnginePolicyConfig): EngineEgress {
  return engineEgress(navigationPolicyOf(config), config.FENGINE_ALLOWED_ORIGINS);
}

/**
 * Engine imports, which go to the FENGINE_URL the self-hoster configured: its origin is trusted
 * too, for these calls only.
 */
export function importEngineEgress(
  config: EnginePolicyConfig & Pick<WorkerConfig, 'FENGINE_URL'>,
): EngineEgress {
  const configured =
    config.FENGINE_URL && URL.canParse(config.FENGINE_URL) ? [new URL(config.FENGINE_URL).origin] : [];
  return engineEgress(navigationPolicyOf(config), [...config.FENGINE_ALLOWED_ORIGINS, ...configured]);
}

function navigationPolicyOf(config: EnginePolicyConfig): NavigationPolicy {
  return {
    allowPrivateNetworks: config.NAVIGATION_ALLOW_PRIVATE_NETWORKS,
    allowedHosts: config.NAVIGATION_ALLOWED_HOSTS,
  };
}
