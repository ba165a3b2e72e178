import { useCallback, useState } from 'react';
import type { ExtractorType, ReplayOutcome } from '@pagewright/shared';
import { bringPageToStep } from '../api/page-calls';

/** A replay running now: to the end of the flow (null) or to the state a step found. */
export interface RunningReplay {
  until: number | null;
}

/**
 * Bringing the live page to a step's state by replaying the steps before it from a fresh page
 * (issue 22): before a step is edited, on Reload, and when a saved item is opened afresh. The
 * last replay that stopped early (a failing step, an ask) is kept for the builder to say so.
 */
export function useReplay(extractorType: ExtractorType) {
  const [running, setRunning] = useState<RunningReplay | null>(null);
  const [stopped, setStopped] = useState<ReplayOutcome | null>(null);

  /** Runs `replay` (which answers how far it got), showing it while it runs. */
  const track = useCallback(
    async <T extends { replay?: ReplayOutcome | undefined }>(
      until: number | null,
      replay: () => Promise<T>,
    ): Promise<T> => {
      setRunning({ until });
      setStopped(null);
      try {
        const answer = await replay();
        if (answer.replay?.stoppedAt != null) setStopped(answer.replay);
        return answer;
      } finally {
        setRunning(null);
      }
    },
    [],
  );

  const toStep = useCallback(
    (sequence: number) => track(sequence, () => bringPageToStep(extractorType, sequence)),
    [extractorType, track],
  );

  return { running, stopped, track, toStep, dismiss: useCallback(() => setStopped(null), []) };
}
