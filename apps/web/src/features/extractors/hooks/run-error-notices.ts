import { useSyncExternalStore } from 'react';

/** The first unseen error of a row in ERROR, waiting for its turn in the bottom-left notice. */
export interface RunErrorNotice {
  /** The error message id: each error is noticed once per tab. */
  key: string;
  extractorId: string;
  name: string;
  text: string;
}

let notices: readonly RunErrorNotice[] = [];
const noticed = new Set<string>();
const listeners = new Set<() => void>();

function emit(): void {
  listeners.forEach((listener) => listener());
}

/** Queues a notice unless this error was already noticed (lists reload every few seconds). */
export function queueRunErrorNotice(notice: RunErrorNotice): void {
  if (noticed.has(notice.key)) return;
  noticed.add(notice.key);
  notices = [...notices, notice];
  emit();
}

export function dismissRunErrorNotice(key: string): void {
  notices = notices.filter((notice) => notice.key !== key);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRunErrorNotices(): readonly RunErrorNotice[] {
  return useSyncExternalStore(subscribe, () => notices);
}
