import type { FastifyBaseLogger } from 'fastify';
import { actionSecretContext, toFlowAction, type SecretBox, type StoredAction } from '@pagewright/db';
import {
  automationErrorText,
  BUILDER_MESSAGES,
  MESSAGES,
  type BuilderAction,
  type BuilderRecord,
  type BuilderView,
  type DraftAction,
  type ExtractorType,
  type LiveSessionRef,
  type ReplayOutcome,
  type SessionCommand,
  type SessionCommandResult,
  type SessionFailure,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { stepWithDefaults } from './builder.inputs.js';
import type { BuilderRepository } from './builder.repository.js';
import { UnreadableDraftError, type BuilderStore } from './builder.store.js';
import { SessionLostError, type SessionCommandClient } from './session-commands.js';

export interface ScreenShareLink {
  url: string;
}

export interface BuilderServiceDeps {
  repo: BuilderRepository;
  store: BuilderStore;
  commands: SessionCommandClient;
  secrets: SecretBox;
  log: FastifyBaseLogger;
  /** Navigators: a read-only screen-share link for the viewer (the screen-share module). */
  shareNavigator?: (userId: string, extractorId: string, runId: string) => Promise<ScreenShareLink>;
  /** The caller's readOnlyEdit setting (automation spec §5); off when not given. */
  isReadOnlyEdit?: (userId: string) => Promise<boolean>;
}

/** A replay runs steps as a validation does, without asks: bounded like one command of them. */
const REPLAY_TIMEOUT_MS = 10 * 60_000;

export const isNavigator = (type: ExtractorType) => type === 'NAVIGATOR' || type === 'FENGINE_NAVIGATOR';
const isInsertor = (type: ExtractorType) => type === 'INSERTOR' || type === 'FENGINE_INSERTOR';

/** The answer to a deleted action, worded for the item's kind (an insertor is not an extractor). */
export function actionDeletedMessage(type: ExtractorType): string {
  if (isNavigator(type)) return MESSAGES['navigator.action.deleted'];
  return MESSAGES[isInsertor(type) ? 'insertor.action.deleted' : 'extractor.action.deleted'];
}

/** Why a save was refused before every action validated, worded for the item's kind. */
export const mustValidateMessage = (type: ExtractorType): string =>
  MESSAGES[isInsertor(type) ? 'insertor.must.validate' : 'extractor.must.validate'];

export function automationText(failure: SessionFailure): string {
  return automationErrorText(failure.code, failure.message);
}

/** A stored action as a draft action; its sealed secret stays sealed. */
export function draftOf(row: StoredAction, userId: string): DraftAction {
  const sealed =
    row.secretCiphertext && row.secretIv && row.secretAuthTag
      ? {
          ciphertext: Buffer.from(row.secretCiphertext).toString('base64'),
          iv: Buffer.from(row.secretIv).toString('base64'),
          authTag: Buffer.from(row.secretAuthTag).toString('base64'),
        }
      : null;
  const step = toFlowAction(
    { ...row, secretCiphertext: null, secretIv: null, secretAuthTag: null },
    userId,
    undefined,
  );
  return {
    id: row.id,
    isSaved: true,
    step,
    sealedSecret: sealed,
    saveOptionsFlag: row.saveOptionsFlag,
    pageUrl: row.pageUrl,
    timestamp: row.updatedAt.toISOString(),
    validation: row.isValidated ? 'SUCCESS' : 'NOTVALIDATED',
    errorMessage: row.validationError,
    value: null,
    pageScreenshotFileId: row.pageScreenshotFileId,
    elementScreenshotFileId: row.elementScreenshotFileId,
    hasDraftPageScreenshot: false,
    hasDraftElementScreenshot: false,
  };
}

export function viewOf(action: DraftAction): BuilderAction {
  const { step } = action;
  const { text, ...options } = step.options;
  return {
    id: action.id,
    sequence: step.sequence,
    type: step.type,
    label: step.label ?? null,
    selectorType: step.target?.selectorType ?? 'CSS',
    selectorValue: step.target?.selectorValue ?? null,
    xpathValue: step.target?.xpathValue ?? null,
    framePath: step.target?.framePath ?? [],
    fallbackLocators: step.target?.fallbackLocators ?? [],
    textValue: action.sealedSecret ? null : (text ?? null),
    hasCredentials: action.sealedSecret !== null,
    saveOptionsFlag: action.saveOptionsFlag,
    options: action.sealedSecret ? options : step.options,
    pageURL: action.pageUrl,
    timestamp: action.timestamp,
    validation: action.validation,
    errorMessage: action.errorMessage,
    isSaved: action.isSaved,
    hasPageScreenshot: action.hasDraftPageScreenshot || action.pageScreenshotFileId !== null,
    hasElementScreenshot: action.hasDraftElementScreenshot || action.elementScreenshotFileId !== null,
  };
}

export const bySequence = (a: DraftAction, b: DraftAction) => a.step.sequence - b.step.sequence;

/**
 * What the three parts of the builder share: the caller's current draft, how it is shown, and the
 * live page it drives on a worker. Every call is scoped to the caller's own builder.
 */
export function createBuilderCore(deps: BuilderServiceDeps) {
  const { repo, store, commands } = deps;

  /**
   * The stored builder of this type, or null. A draft that no longer reads has been set aside by
   * the store: that is logged, then refused with a message that says so (`refuse`), or forgotten
   * (`forget`: the builder is being replaced or closed anyway).
   */
  async function stored(
    userId: string,
    type: ExtractorType,
    whenUnreadable: 'refuse' | 'forget' = 'refuse',
  ): Promise<BuilderRecord | null> {
    try {
      return await store.get(userId, type);
    } catch (error) {
      if (!(error instanceof UnreadableDraftError)) throw error;
      deps.log.error(
        {
          userId: error.userId,
          extractorType: error.extractorType,
          extractorId: error.extractorId,
          quarantineKey: error.quarantineKey,
          issues: error.issues,
        },
        'a stored builder draft does not read: it was set aside',
      );
      if (whenUnreadable === 'forget') return null;
      throw new AppError('CONFLICT', BUILDER_MESSAGES.draftUnreadable);
    }
  }

  async function current(userId: string, type: ExtractorType): Promise<BuilderRecord> {
    const record = await stored(userId, type);
    if (!record) throw new AppError('NOT_FOUND', BUILDER_MESSAGES.noBuilder);
    return record;
  }

  async function view(userId: string, record: BuilderRecord): Promise<BuilderView> {
    const header = await repo.findOwnedExtractorHeader(userId, record.extractorId);
    if (!header) {
      await store.remove(userId, record.extractorType);
      throw AppError.notFound();
    }
    const actions = [...record.actions].sort(bySequence);
    return {
      ...header,
      actions: actions.map(viewOf),
      isValidated: actions.length > 0 && actions.every((action) => action.validation === 'SUCCESS'),
      state: record.state,
      screenShareUrl: record.shareUrl,
      inputs: record.inputs,
    };
  }

  /**
   * The live session of the builder, opened on a worker when there is none yet. Opening holds a
   * lock of its own, so the screen's first calls (page areas and picture at once) open one page
   * between them, and writes only the session, so it never undoes a concurrent edit of the draft.
   */
  async function live(userId: string, record: BuilderRecord): Promise<LiveSessionRef> {
    if (record.live) return record.live;
    const type = record.extractorType;
    return store.withOpenLock(userId, type, async () => {
      const now = await stored(userId, type);
      if (!now) throw new AppError('NOT_FOUND', BUILDER_MESSAGES.noBuilder);
      if (now.openedAt !== record.openedAt) throw new AppError('CONFLICT', BUILDER_MESSAGES.replaced);
      if (now.live) return (record.live = now.live);
      const opened = await commands.open(userId);
      if (!(await store.setLive(userId, type, record.openedAt, opened))) {
        // The builder was closed or opened again while the page opened: nobody would drive it.
        await commands.close(opened.workerId, opened.sessionId, userId);
        throw new AppError('CONFLICT', BUILDER_MESSAGES.replaced);
      }
      return (record.live = opened);
    });
  }

  /**
   * A command to the builder's page. A lost session (worker or browser gone) is forgotten so the
   * next call opens a new one, and the caller hears why. An aborted `signal` stops the command on
   * the worker and throws the signal's reason.
   */
  async function command<C extends Exclude<SessionCommand, { command: 'open' }>>(
    userId: string,
    record: BuilderRecord,
    build: (sessionId: string) => C,
    timeoutMs: number,
    onProgress?: Parameters<SessionCommandClient['command']>[3],
    signal?: AbortSignal,
  ): Promise<SessionCommandResult<C['command']>> {
    const session = await live(userId, record);
    try {
      return await commands.command(
        session.workerId,
        build(session.sessionId),
        timeoutMs,
        onProgress,
        signal,
      );
    } catch (error) {
      if (!(error instanceof SessionLostError)) throw error;
      record.live = null;
      await store.clearLive(userId, record.extractorType, session.sessionId);
      throw new AppError('SESSION_LOST', BUILDER_MESSAGES.sessionLost);
    }
  }

  async function closeLive(userId: string, record: BuilderRecord): Promise<void> {
    if (!record.live) return;
    await commands.close(record.live.workerId, record.live.sessionId, userId);
    record.live = null;
  }

  /**
   * readOnlyEdit (automation spec §5): a saved item (its first action has an id in the database)
   * can be looked at and explored, but its actions cannot be changed, moved, validated or saved.
   */
  async function assertEditable(userId: string, record: BuilderRecord): Promise<void> {
    const first = [...record.actions].sort(bySequence)[0];
    if (!first?.isSaved || !deps.isReadOnlyEdit) return;
    if (await deps.isReadOnlyEdit(userId)) throw new AppError('FORBIDDEN', MESSAGES['extractor.read.only']);
  }

  function find(record: BuilderRecord, sequence: number): DraftAction {
    const action = record.actions.find((candidate) => candidate.step.sequence === sequence);
    if (!action) throw new AppError('NOT_FOUND', BUILDER_MESSAGES.actionNotFound, 'sequence');
    return action;
  }

  async function storeImages(
    userId: string,
    action: DraftAction,
    page: string | null,
    element: string | null,
  ) {
    if (page) {
      await store.putImage(userId, action.id, 'page', Buffer.from(page, 'base64'));
      action.hasDraftPageScreenshot = true;
    }
    if (element) {
      await store.putImage(userId, action.id, 'element', Buffer.from(element, 'base64'));
      action.hasDraftElementScreenshot = true;
    } else {
      await store.dropImage(userId, action.id, 'element');
      action.hasDraftElementScreenshot = false;
      action.elementScreenshotFileId = null;
    }
  }

  /** Notes pictures the validating worker stored under the action itself (builderImageKey). */
  function markImages(action: DraftAction, hasPage: boolean, hasElement: boolean): void {
    if (hasPage) action.hasDraftPageScreenshot = true;
    action.hasDraftElementScreenshot = hasElement;
    if (!hasElement) action.elementScreenshotFileId = null;
  }

  async function image(
    userId: string,
    action: DraftAction,
    kind: 'page' | 'element',
  ): Promise<string | null> {
    const hasDraft = kind === 'page' ? action.hasDraftPageScreenshot : action.hasDraftElementScreenshot;
    if (hasDraft) {
      const bytes = await store.getImage(userId, action.id, kind);
      if (bytes) return bytes.toString('base64');
    }
    const fileId = kind === 'page' ? action.pageScreenshotFileId : action.elementScreenshotFileId;
    if (!fileId) return null;
    const file = await repo.findOwnedFile(userId, fileId);
    return file ? file.content.toString('base64') : null;
  }

  /**
   * Brings the live page to the state step `until` found (all steps when null) by replaying the
   * draft's steps before it from a fresh context, under the builder's lock (issue 22: opening a
   * saved item, editing a step, Reload). An ask ends the replay before it.
   */
  async function replay(
    userId: string,
    type: ExtractorType,
    until: number | null,
  ): Promise<{ record: BuilderRecord; outcome: ReplayOutcome }> {
    return store.withLock(userId, type, async () => {
      const record = await current(userId, type);
      const ordered = [...record.actions].sort(bySequence);
      const answer = await command(
        userId,
        record,
        (sessionId) => ({
          command: 'replay',
          sessionId,
          userId,
          untilSequence: until,
          steps: ordered.map((action) => ({
            step: stepWithDefaults(record, action.step),
            sealedSecret: action.sealedSecret,
            secretContext: action.sealedSecret ? actionSecretContext(userId, action.id) : null,
          })),
        }),
        REPLAY_TIMEOUT_MS,
      );
      if (!answer.ok) throw new AppError('UNPROCESSABLE', automationText(answer));
      const { reachedSequence, stoppedAt, message } = answer;
      return { record, outcome: { reachedSequence, stoppedAt, message } };
    });
  }

  return {
    stored,
    current,
    view,
    live,
    command,
    replay,
    closeLive,
    assertEditable,
    find,
    storeImages,
    markImages,
    image,
  };
}
export type BuilderCore = ReturnType<typeof createBuilderCore>;
