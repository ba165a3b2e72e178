import type { ExtractorType } from '@pagewright/shared';

type Listener = (extractorType: ExtractorType) => void;

const listeners = new Set<Listener>();

/**
 * Asks the pending-ask host (features/asks, mounted once by the app layout) to look for a question
 * a run of that type waits on. Lives here so any feature can ask without importing another one:
 * the dashboard lists call it after each load (spec §4 "Dashboard polling").
 */
export function requestPendingAskCheck(extractorType: ExtractorType): void {
  for (const listener of [...listeners]) listener(extractorType);
}

/** The host's side: called with the type to check; returns the unsubscribe function. */
export function onPendingAskCheckRequest(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
