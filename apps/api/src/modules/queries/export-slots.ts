/**
 * How many query exports this process runs at once: each one holds a database connection (a
 * writer thread's own, for a large one) and a thread's heap for as long as its reader takes.
 */
export interface ExportSlots {
  /** A free slot, with the function that gives it back (once, however often it is called); null when all are taken. */
  take(): (() => void) | null;
  /** Slots taken now. */
  readonly running: number;
}

export function createExportSlots(max: number): ExportSlots {
  let running = 0;
  return {
    take() {
      if (running >= max) return null;
      running += 1;
      let isReturned = false;
      return () => {
        if (isReturned) return;
        isReturned = true;
        running -= 1;
      };
    },
    get running() {
      return running;
    },
  };
}
