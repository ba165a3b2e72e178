import type { ExtractorType, ScreenShareLiveFrame } from '@pagewright/shared';
import type { BuilderStore } from './builder.store.js';
import { SessionLostError, type SessionCommandClient } from './session-commands.js';

/** A viewer's read waits this long at most; its next poll asks again. */
const VIEWER_READ_TIMEOUT_MS = 10_000;

/** Which live page a screen share shows: its owner's builder of that navigator, recording that run. */
export interface SharedLivePageRef {
  ownerId: string;
  extractorType: ExtractorType;
  extractorId: string;
  runId: string;
}

/**
 * The live page of a navigator's builder as its screen-share viewer sees it (issue 22): the
 * latest frame of the owner's session (the `image` command getImageNavigator uses). It never opens
 * a session, takes no lock of the builder, and is a passive read on the worker, so a viewer keeps
 * no page open that its owner left. Null when that builder has no live page now (not opened yet,
 * ended, lost, or recording another run).
 */
export function createSharedLivePages(deps: { store: BuilderStore; commands: SessionCommandClient }) {
  return {
    async frame(ref: SharedLivePageRef): Promise<ScreenShareLiveFrame | null> {
      const builder = await deps.store.sharedLive(ref.ownerId, ref.extractorType);
      if (!builder || builder.extractorId !== ref.extractorId || builder.shareRunId !== ref.runId)
        return null;
      const { workerId, sessionId } = builder.live;
      try {
        const answer = await deps.commands.command(
          workerId,
          { command: 'image', sessionId, userId: ref.ownerId, isPassive: true },
          VIEWER_READ_TIMEOUT_MS,
        );
        if (!answer.ok) return null;
        return { image: answer.image, pageUrl: answer.pageUrl, width: answer.width, height: answer.height };
      } catch (error) {
        // The owner's next call forgets the lost session; the viewer just has no live page.
        if (error instanceof SessionLostError) return null;
        throw error;
      }
    },
  };
}
