import type { BrowserTier } from '@pagewright/shared';
import type { BrowserHostsRepository } from './browser-hosts.repository.js';

/**
 * The browser tier as the Settings card shows it (issue 27): every live worker's browsers, their
 * state and load. Hosts are the deployment's (BROWSER_ENDPOINTS of the workers), not a user's
 * items: every signed-in user may see their state, and nobody sees a token (docs/decisions.md).
 */
export function createBrowserHostsService(repository: BrowserHostsRepository) {
  return {
    async tier(): Promise<BrowserTier> {
      const workers = await repository.listWorkers();
      return { workers: workers.sort((a, b) => a.workerId.localeCompare(b.workerId)) };
    },
  };
}
export type BrowserHostsService = ReturnType<typeof createBrowserHostsService>;
