import {
  BUILDER_MESSAGES,
  MESSAGES,
  type DateMask,
  type DialogAnswer,
  type EvaluatePointResponse,
  type ExtractorType,
  type LiveImageResponse,
  type LookAroundRequest,
  type MaskPreviewResponse,
  type NormalizedPage,
  type NumberMask,
  type Point,
  type ScreenshotResponse,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { automationText, isNavigator, type BuilderCore } from './builder.core.js';

const QUICK_TIMEOUT_MS = 30_000;

/**
 * Commands to the builder's live page (automation spec §7): the element at a point, the page's
 * element areas, its picture, mask previews; and the pictures each action last took. None of them
 * changes the draft, so none waits for the builder's lock, but a replay (Reload, editing a step)
 * moves the live page and holds it.
 */
export function createLivePageCommands(core: BuilderCore) {
  const { current, command, find, image, replay } = core;

  async function pageAreas(userId: string, type: ExtractorType, reload: boolean) {
    const record = await current(userId, type);
    const answer = await command(
      userId,
      record,
      (sessionId) => ({ command: 'pageAreas', sessionId, userId, reload }),
      QUICK_TIMEOUT_MS + 30_000,
    );
    const key = isNavigator(type) ? 'navigator.normalized.error' : 'extractor.normalized.error';
    if (!answer.ok) throw new AppError('UNPROCESSABLE', `${MESSAGES[key]} ${answer.message}`);
    return answer;
  }

  return {
    /**
     * POST /extractor/dialog: the operator's answer to the dialog the live page shows (the step
     * that raised it is still running, holding the builder's lock).
     */
    async answerDialog(userId: string, type: ExtractorType, answer: DialogAnswer): Promise<string> {
      const record = await current(userId, type);
      if (!record.live) throw new AppError('CONFLICT', BUILDER_MESSAGES.noPageDialog);
      const result = await command(
        userId,
        record,
        (sessionId) => ({ command: 'answerDialog', sessionId, userId, answer }),
        QUICK_TIMEOUT_MS,
      );
      if (!result.ok || !result.answered) throw new AppError('CONFLICT', BUILDER_MESSAGES.noPageDialog);
      return answer.accept ? 'OK' : 'Cancel';
    },

    /**
     * POST /extractor/scroll: the wheel over the page view while picking moves the live page and
     * records nothing (what is picked below the fold is scrolled to when its step runs).
     */
    async lookAround(userId: string, type: ExtractorType, request: LookAroundRequest): Promise<void> {
      const record = await current(userId, type);
      const answer = await command(
        userId,
        record,
        (sessionId) => ({ command: 'lookAround', sessionId, userId, ...request }),
        QUICK_TIMEOUT_MS,
      );
      if (!answer.ok) throw new AppError('UNPROCESSABLE', automationText(answer));
    },

    async evaluatePoint(userId: string, type: ExtractorType, point: Point): Promise<EvaluatePointResponse> {
      const record = await current(userId, type);
      const answer = await command(
        userId,
        record,
        (sessionId) => ({ command: 'evaluatePoint', sessionId, userId, point }),
        QUICK_TIMEOUT_MS,
      );
      if (!answer.ok) {
        if (answer.reason === 'NO_ELEMENT')
          throw new AppError('NOT_FOUND', BUILDER_MESSAGES.noElementAtPoint);
        throw new AppError('UNPROCESSABLE', automationText(answer));
      }
      const { ok: _ok, ...element } = answer;
      return element;
    },

    /**
     * The live page's element areas. `reload` (GET /extractor/normalized/reload) replays the
     * draft's steps from a fresh page when it has any (issue 22: Reload replays), else reloads.
     * A navigator's steps are a live screen share: its Reload only reloads the page.
     */
    async normalized(userId: string, type: ExtractorType, reload: boolean): Promise<NormalizedPage> {
      let outcome: NormalizedPage['replay'];
      let reloadPage = reload;
      if (reload && !isNavigator(type) && (await current(userId, type)).actions.length > 0) {
        outcome = (await replay(userId, type, null)).outcome;
        reloadPage = false;
      }
      const answer = await pageAreas(userId, type, reloadPage);
      const { engine } = await current(userId, type);
      return {
        pageURL: answer.pageUrl,
        pageScreenshot: answer.pageScreenshot,
        areas: answer.areas,
        fserviceDTO: engine.fserviceDTO ?? { sections: [] },
        managementDTO: engine.managementDTO,
        ...(outcome ? { replay: outcome } : {}),
      };
    },

    /** GET /extractor/getImageNavigator: the live page as it looks now (the last screencast frame). */
    async liveImage(userId: string, type: ExtractorType): Promise<LiveImageResponse> {
      const record = await current(userId, type);
      const answer = await command(
        userId,
        record,
        (sessionId) => ({ command: 'image', sessionId, userId }),
        QUICK_TIMEOUT_MS,
      );
      if (!answer.ok || !record.live) throw new AppError('NOT_FOUND', BUILDER_MESSAGES.noImage);
      return {
        image: answer.image,
        pageURL: answer.pageUrl,
        width: answer.width,
        height: answer.height,
        sessionId: record.live.sessionId,
      };
    },

    async maskPreview(
      userId: string,
      type: ExtractorType,
      selectorValue: string,
      mask: { numberMask: NumberMask } | { dateMask: DateMask },
    ): Promise<MaskPreviewResponse> {
      const record = await current(userId, type);
      const answer = await command(
        userId,
        record,
        (sessionId) => ({ command: 'maskPreview', sessionId, userId, selectorValue, ...mask }),
        QUICK_TIMEOUT_MS,
      );
      if (!answer.ok) throw new AppError('UNPROCESSABLE', `${BUILDER_MESSAGES.maskError}: ${answer.message}`);
      return { text: answer.text, value: answer.value };
    },

    async screenshot(userId: string, type: ExtractorType, sequence: number): Promise<ScreenshotResponse> {
      const record = await current(userId, type);
      const action = find(record, sequence);
      return {
        sequence,
        pageScreenshot: await image(userId, action, 'page'),
        elementScreenshot: await image(userId, action, 'element'),
      };
    },

    async allScreenshots(userId: string, type: ExtractorType): Promise<Record<string, string | null>> {
      const record = await current(userId, type);
      const entries = await Promise.all(
        record.actions.map(
          async (action) => [String(action.step.sequence), await image(userId, action, 'element')] as const,
        ),
      );
      return Object.fromEntries(entries);
    },

    /** GET /extractor/edit/normalized?sequence=: the page as that action last saw it. */
    /**
     * GET /extractor/edit/normalized?sequence=: brings the live page to the state the step found
     * (the steps before it replayed from a fresh page) so that it can be edited there; answers
     * the page as it is now and the element picture the step last took.
     */
    async actionPage(userId: string, type: ExtractorType, sequence: number) {
      find(await current(userId, type), sequence);
      const { record, outcome } = await replay(userId, type, sequence);
      const action = find(record, sequence);
      const page = await pageAreas(userId, type, false);
      return {
        sequence,
        pageURL: page.pageUrl,
        pageScreenshot: page.pageScreenshot,
        elementScreenshot: await image(userId, action, 'element'),
        target: action.step.target ?? null,
        replay: outcome,
      };
    },
  };
}
