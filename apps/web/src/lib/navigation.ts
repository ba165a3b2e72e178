/**
 * Lets code outside React (the API client) move the router without a full page load, which would
 * lose in-memory state and re-run the first-load check. The router registers itself at start-up.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => Promise<void>;

let navigateWithRouter: Navigate | null = null;

export function registerNavigate(navigate: Navigate): void {
  navigateWithRouter = navigate;
}

/** Resolves once the router shows the new location. */
export async function navigateTo(to: string, options: { replace?: boolean } = {}): Promise<void> {
  if (navigateWithRouter) await navigateWithRouter(to, options);
  else window.location.assign(to);
}
