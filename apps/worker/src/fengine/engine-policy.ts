import { assertNavigationAllowed, type NavigationPolicy } from '@pagewright/automation';
import type { WorkerConfig } from '../config.js';

type EnginePolicyConfig = Pick<
  WorkerConfig,
  'NAVIGATION_ALLOW_PRIVATE_NETWORKS' | 'NAVIGATION_ALLOWED_HOSTS' | 'FENGINE_ALLOWED_HOSTS'
>;

/**
 * Where the worker may reach an F-engine: the egress policy of navigation (a flow cannot reach
 * the host's own network, so neither can an engine address an operator types), with the engine
 * hosts of FENGINE_ALLOWED_HOSTS allowed even on a private network. Every engine call of the worker
 * (imports, the F-engine insertor steps) goes through this one function; it throws
 * NavigationRefusedError, whose `reason` the connector puts in its sentence.
 */
export function engineUrlPolicy(config: EnginePolicyConfig): (url: string) => Promise<void> {
  const policy: NavigationPolicy = {
    allowPrivateNetworks: config.NAVIGATION_ALLOW_PRIVATE_NETWORKS,
    allowedHosts: [...config.NAVIGATION_ALLOWED_HOSTS, ...config.FENGINE_ALLOWED_HOSTS],
  };
  return (url) => assertNavigationAllowed(url, policy);
}
