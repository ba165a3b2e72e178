import { useSyncExternalStore } from 'react';

/** How many non-quiet API calls are running; the full-screen overlay shows while it is above zero. */
let pendingCalls = 0;
const listeners = new Set<() => void>();

function emit(): void {
  listeners.forEach((listener) => listener());
}

export function beginLoading(): void {
  pendingCalls += 1;
  emit();
}

export function endLoading(): void {
  pendingCalls = Math.max(0, pendingCalls - 1);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useIsLoading(): boolean {
  return useSyncExternalStore(subscribe, () => pendingCalls > 0);
}
