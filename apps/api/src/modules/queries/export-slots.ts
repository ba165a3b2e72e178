/**
 * How many query exports run at once: in this process (each holds a database connection, and a
 * writer thread's heap for a large one, for as long as its reader takes) and for one user (one
 * account cannot take every slot of the process).
 */
export type ExportSlot =
  /** Gives the slot back (once, however often it is called). */
  { giveBack: () => void } | { refusal: 'process' | 'user' };

export interface ExportSlots {
  take(userId: string): ExportSlot;
  /** Slots taken now, in all. */
  readonly running: number;
}

export function createExportSlots(max: number, maxPerUser: number): ExportSlots {
  let running = 0;
  const byUser = new Map<string, number>();
  return {
    take(userId) {
      if (running >= max) return { refusal: 'process' };
      const mine = byUser.get(userId) ?? 0;
      if (mine >= maxPerUser) return { refusal: 'user' };
      running += 1;
      byUser.set(userId, mine + 1);
      let isReturned = false;
      return {
        giveBack: () => {
          if (isReturned) return;
          isReturned = true;
          running -= 1;
          const left = (byUser.get(userId) ?? 1) - 1;
          if (left > 0) byUser.set(userId, left);
          else byUser.delete(userId);
        },
      };
    },
    get running() {
      return running;
    },
  };
}
