import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  actionSecretContext,
  toActionRowParts,
  toFlowAction,
  type SecretBox,
  type StoredAction,
} from '@pagewright/db';
import {
  AUTOMATION_ERRORS,
  BUILDER_MESSAGES,
  MESSAGES,
  actionRuleError,
  clampWaitSeconds,
  nextSequence,
  type ActionOptions,
  type AddActionRequest,
  type AddActionResponse,
  type BuilderAction,
  type BuilderRecord,
  type BuilderView,
  type ChangeActionRequest,
  type DraftAction,
  type EvaluatePointResponse,
  type ExecuteResult,
  type ExtractorType,
  type FlowAction,
  type LiveImageResponse,
  type MaskPreviewResponse,
  type NormalizedPage,
  type Point,
  type ResequenceResponse,
  type ScreenshotResponse,
  type SealedSecretJson,
  type SessionCommand,
  type SessionFailure,
  type StepValue,
  type ValidateResult,
  type ValidationResult,
  type DateMask,
  type NumberMask,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import { isPrismaError } from '../extractor/extractor.repository.js';
import type { BuilderRepository, ActionToSave } from './builder.repository.js';
import type { BuilderStore } from './builder.store.js';
import { SessionLostError, type SessionCommandClient } from './session-commands.js';

/** Bounds of one command (an action may WAIT 60 s and then navigate for 30 s). */
const EXECUTE_TIMEOUT_MS = 120_000;
const QUICK_TIMEOUT_MS = 30_000;
/** A validation may wait on asks (ASK_TIMEOUT_SECONDS each): bounded, and its worker is watched. */
const VALIDATE_TIMEOUT_MS = 60 * 60_000;
const VALIDATE_LOCK_RENEW_MS = 20_000;

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

const isNavigator = (type: ExtractorType) => type === 'NAVIGATOR' || type === 'FENGINE_NAVIGATOR';

function toJson(sealed: { ciphertext: Buffer; iv: Buffer; authTag: Buffer }): SealedSecretJson {
  return {
    ciphertext: sealed.ciphertext.toString('base64'),
    iv: sealed.iv.toString('base64'),
    authTag: sealed.authTag.toString('base64'),
  };
}
function fromJson(sealed: SealedSecretJson) {
  return {
    ciphertext: Buffer.from(sealed.ciphertext, 'base64'),
    iv: Buffer.from(sealed.iv, 'base64'),
    authTag: Buffer.from(sealed.authTag, 'base64'),
  };
}

function automationText(failure: SessionFailure): string {
  const name = failure.code ? (AUTOMATION_ERRORS[failure.code] ?? failure.name) : failure.name;
  return name && failure.code ? `${name} (${failure.code}): ${failure.message}` : failure.message;
}

/** A stored action as a draft action; its sealed secret stays sealed. */
function draftOf(row: StoredAction, userId: string): DraftAction {
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

function viewOf(action: DraftAction): BuilderAction {
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

const bySequence = (a: DraftAction, b: DraftAction) => a.step.sequence - b.step.sequence;

/** Renames references to a moved sequence (IF jumps and IF_CONDITION sources). */
function remapReferences(actions: DraftAction[], moves: ReadonlyMap<number, number>): void {
  for (const action of actions) {
    const options = action.step.options;
    const destination = options.sequenceDestination;
    if (destination !== undefined && moves.has(destination))
      options.sequenceDestination = moves.get(destination);
    const source = options.condition?.sequenceSource;
    if (options.condition && source !== undefined && moves.has(source))
      options.condition = { ...options.condition, sequenceSource: moves.get(source) as number };
  }
}

/**
 * The action builder (automation spec §2, §4, §5, §7): the caller's current draft of one
 * extractor, edited action by action against a live page on a worker, validated there, and saved
 * in one transaction. Every call is scoped to the caller's own builder.
 */
export function createBuilderService(deps: BuilderServiceDeps) {
  const { repo, store, commands, secrets } = deps;

  async function current(userId: string, type: ExtractorType): Promise<BuilderRecord> {
    const record = await store.get(userId, type);
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
      screenShareUrl: record.shareUrl,
    };
  }

  /** The live session of the builder, opened on a worker when there is none yet. */
  async function live(userId: string, record: BuilderRecord) {
    if (record.live) return record.live;
    record.live = await commands.open(userId);
    await store.put(userId, record);
    return record.live;
  }

  /**
   * A command to the builder's page. A lost session (worker or browser gone) is forgotten so the
   * next call opens a new one, and the caller hears why.
   */
  async function command<T>(
    userId: string,
    record: BuilderRecord,
    build: (sessionId: string) => SessionCommand,
    timeoutMs: number,
    onProgress?: Parameters<SessionCommandClient['command']>[3],
  ): Promise<T | SessionFailure> {
    const session = await live(userId, record);
    try {
      return await commands.command<T>(session.workerId, build(session.sessionId), timeoutMs, onProgress);
    } catch (error) {
      if (!(error instanceof SessionLostError)) throw error;
      record.live = null;
      await store.put(userId, record);
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

  /** The step and secret an add/change request describes, checked against the spec's rules. */
  function describe(
    userId: string,
    record: BuilderRecord,
    request: AddActionRequest | ChangeActionRequest,
    type: DraftAction['step']['type'],
    sequence: number,
    base: DraftAction | undefined,
  ) {
    const options: ActionOptions = { ...(base?.step.options ?? {}), ...(request.options ?? {}) };
    const textValue = request.textValue ?? (base?.sealedSecret ? undefined : base?.step.options.text);
    if (type === 'WAIT') {
      const seconds = clampWaitSeconds(request.options?.number ?? textValue);
      options.number = seconds;
      options.text = String(seconds);
    } else if (textValue !== undefined && type !== 'TYPE_PASSWORD') {
      options.text = textValue;
    }
    if (type === 'TYPE_PASSWORD') delete options.text;
    const target = request.target ?? base?.step.target;
    const others = record.actions
      .filter((action) => action !== base)
      .map((action) => ({
        sequence: action.step.sequence,
        type: action.step.type,
        options: action.step.options,
      }));
    const broken = actionRuleError(
      {
        type,
        sequence,
        target,
        options,
        textValue: type === 'WAIT' ? options.text : textValue,
        hasCredentials: Boolean(request.credentials) || Boolean(base?.sealedSecret),
      },
      others,
      record.extractorType,
      base === undefined,
    );
    if (broken) throw AppError.validation(broken.message, broken.field);
    const step: FlowAction = {
      sequence,
      type,
      ...(request.label ? { label: request.label } : base?.step.label ? { label: base.step.label } : {}),
      ...(target ? { target } : {}),
      options,
    };
    return { step, textValue };
  }

  function sealFor(userId: string, actionId: string, secret: string): SealedSecretJson {
    return toJson(secrets.seal(secret, actionSecretContext(userId, actionId)));
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
    return file?.content ? Buffer.from(file.content).toString('base64') : null;
  }

  function previousValues(record: BuilderRecord, before: number): Record<string, StepValue> {
    const values: Record<string, StepValue> = {};
    for (const action of record.actions)
      if (action.value && action.step.sequence < before) values[String(action.step.sequence)] = action.value;
    return values;
  }

  return {
    /**
     * Makes an extractor the caller's current builder of its type (after Create, and by Edit):
     * the draft is the saved flow; any previous builder of that type closes.
     */
    async open(userId: string, extractorId: string): Promise<BuilderView> {
      const extractor = await repo.findOwnedExtractor(userId, extractorId);
      if (!extractor) throw AppError.notFound();
      const type = extractor.extractorType;
      return store.withLock(userId, type, async () => {
        const previous = await store.get(userId, type);
        if (previous) {
          await closeLive(userId, previous);
          if (previous.shareRunId) await repo.finishShareRun(previous.shareRunId, previous.extractorId);
        }
        let actions: DraftAction[];
        try {
          actions = extractor.actions.map((row) => draftOf(row, userId));
        } catch (error) {
          throw AppError.validation(error instanceof Error ? error.message : String(error));
        }
        const record: BuilderRecord = {
          extractorId,
          extractorType: type,
          actions,
          live: null,
          shareRunId: null,
          shareUrl: null,
          openedAt: new Date().toISOString(),
        };
        if (isNavigator(type)) {
          const run = await repo.createShareRun(userId, extractorId);
          record.shareRunId = run.id;
          if (deps.shareNavigator)
            record.shareUrl = (await deps.shareNavigator(userId, extractorId, run.id)).url;
        }
        await store.put(userId, record);
        return view(userId, record);
      });
    },

    /** Refuses with 403 when readOnlyEdit keeps the caller's current builder from changing. */
    async assertEditable(userId: string, type: ExtractorType): Promise<void> {
      await assertEditable(userId, await current(userId, type));
    },

    async current(userId: string, type: ExtractorType): Promise<BuilderView> {
      return view(userId, await current(userId, type));
    },

    /** POST /extractor/: adds an action and runs it on the live page (RAISE_ERROR is only added). */
    async addAction(
      userId: string,
      type: ExtractorType,
      request: AddActionRequest,
    ): Promise<AddActionResponse> {
      return store.withLock(userId, type, async () => {
        const record = await current(userId, type);
        const sequence =
          request.sequence ?? nextSequence(record.actions.map((action) => action.step.sequence));
        const { step } = describe(userId, record, request, request.type, sequence, undefined);
        const id = randomUUID();
        const sealedSecret =
          request.credentials && step.type === 'TYPE_PASSWORD'
            ? sealFor(userId, id, request.credentials)
            : null;
        const action: DraftAction = {
          id,
          isSaved: false,
          step,
          sealedSecret,
          saveOptionsFlag: request.saveOptionsFlag ?? false,
          pageUrl: null,
          timestamp: new Date().toISOString(),
          validation: 'NOTVALIDATED',
          errorMessage: null,
          value: null,
          pageScreenshotFileId: null,
          elementScreenshotFileId: null,
          hasDraftPageScreenshot: false,
          hasDraftElementScreenshot: false,
        };
        let result: ExecuteResult | null = null;
        if (step.type !== 'RAISE_ERROR') {
          const answer = await command<ExecuteResult>(
            userId,
            record,
            (sessionId) => ({
              command: 'execute',
              sessionId,
              userId,
              step,
              previousValues: previousValues(record, sequence),
              sealedSecret,
              secretContext: sealedSecret ? actionSecretContext(userId, id) : null,
              answer: step.type.startsWith('ASK_') ? (request.credentials ?? null) : null,
              recordToRunId: record.shareRunId,
            }),
            EXECUTE_TIMEOUT_MS,
          );
          if (!answer.ok) throw new AppError('UNPROCESSABLE', automationText(answer));
          result = answer;
          action.pageUrl = result.pageUrl;
          action.timestamp = result.timestamp;
          action.value = result.value;
          await storeImages(userId, action, result.pageScreenshot, result.elementScreenshot);
        }
        record.actions = [...record.actions, action].sort(bySequence);
        await store.put(userId, record);
        return {
          action: viewOf(action),
          label: step.label ?? null,
          options: viewOf(action).options,
          value: result?.value ?? null,
          pageScreenshot: result?.pageScreenshot ?? null,
          fserviceDTO: null,
          managementDTO: null,
        };
      });
    },

    /** POST /extractor/action: changes an action; it needs validating again. */
    async changeAction(
      userId: string,
      type: ExtractorType,
      request: ChangeActionRequest,
    ): Promise<BuilderAction> {
      return store.withLock(userId, type, async () => {
        const record = await current(userId, type);
        await assertEditable(userId, record);
        const action = find(record, request.sequence);
        const { step } = describe(userId, record, request, action.step.type, action.step.sequence, action);
        action.step = step;
        if (request.credentials && step.type === 'TYPE_PASSWORD')
          action.sealedSecret = sealFor(userId, action.id, request.credentials);
        if (request.saveOptionsFlag !== undefined) action.saveOptionsFlag = request.saveOptionsFlag;
        action.validation = 'NOTVALIDATED';
        action.errorMessage = null;
        // The element may be another one now: its old picture would mislead.
        await store.dropImage(userId, action.id, 'element');
        action.hasDraftElementScreenshot = false;
        action.elementScreenshotFileId = null;
        await store.put(userId, record);
        return viewOf(action);
      });
    },

    /** DELETE /extractor/action?sequence=: never the first action; the flow needs validating again. */
    async deleteAction(userId: string, type: ExtractorType, sequence: number): Promise<string> {
      return store.withLock(userId, type, async () => {
        const record = await current(userId, type);
        await assertEditable(userId, record);
        const action = find(record, sequence);
        if (record.actions.sort(bySequence)[0] === action)
          throw AppError.validation(MESSAGES['extractor.first.action.delete.warning'], 'sequence');
        record.actions = record.actions.filter((candidate) => candidate !== action);
        for (const other of record.actions) other.validation = 'NOTVALIDATED';
        await store.dropImage(userId, action.id, 'page');
        await store.dropImage(userId, action.id, 'element');
        await store.put(userId, record);
        return MESSAGES['extractor.action.deleted'];
      });
    },

    /** PUT /extractor/sequence: moves one action (never the first, never before it). */
    async changeSequence(
      userId: string,
      type: ExtractorType,
      from: number,
      to: number,
    ): Promise<BuilderView> {
      return store.withLock(userId, type, async () => {
        const record = await current(userId, type);
        await assertEditable(userId, record);
        const action = find(record, from);
        const ordered = record.actions.sort(bySequence);
        const first = ordered[0] as DraftAction;
        if (action === first)
          throw AppError.validation(MESSAGES['extractor.first.action.change.warning'], 'currentSequence');
        if (to <= first.step.sequence || to < 0 || ordered.some((other) => other.step.sequence === to))
          throw AppError.validation(MESSAGES['extractor.sequence.change.warning'], 'newSequence');
        action.step.sequence = to;
        action.validation = 'NOTVALIDATED';
        remapReferences(record.actions, new Map([[from, to]]));
        record.actions.sort(bySequence);
        await store.put(userId, record);
        return view(userId, record);
      });
    },

    /** GET /extractor/resequence: renumbers every action after the first in steps of ten. */
    async resequence(userId: string, type: ExtractorType): Promise<ResequenceResponse> {
      return store.withLock(userId, type, async () => {
        const record = await current(userId, type);
        await assertEditable(userId, record);
        const ordered = record.actions.sort(bySequence);
        const first = ordered[0]?.step.sequence ?? 0;
        const moves = new Map<number, number>();
        const pairs = ordered.map((action, index) => {
          const before = action.step.sequence;
          const after = index === 0 ? before : first + index * 10;
          if (before !== after) moves.set(before, after);
          action.step.sequence = after;
          return { sequenceBefore: before, sequenceAfter: after };
        });
        remapReferences(ordered, moves);
        await store.put(userId, record);
        return pairs;
      });
    },

    async evaluatePoint(userId: string, type: ExtractorType, point: Point): Promise<EvaluatePointResponse> {
      const record = await current(userId, type);
      const answer = await command<EvaluatePointResponse & { ok: true }>(
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

    async normalized(userId: string, type: ExtractorType, reload: boolean): Promise<NormalizedPage> {
      const record = await current(userId, type);
      const answer = await command<{
        ok: true;
        pageUrl: string;
        areas: NormalizedPage['areas'];
        pageScreenshot: string | null;
      }>(
        userId,
        record,
        (sessionId) => ({ command: 'pageAreas', sessionId, userId, reload }),
        QUICK_TIMEOUT_MS + 30_000,
      );
      const key = isNavigator(type) ? 'navigator.normalized.error' : 'extractor.normalized.error';
      if (!answer.ok) throw new AppError('UNPROCESSABLE', `${MESSAGES[key]} ${answer.message}`);
      return {
        pageURL: answer.pageUrl,
        pageScreenshot: answer.pageScreenshot,
        areas: answer.areas,
        fserviceDTO: { sections: [] },
      };
    },

    /** GET /extractor/getImageNavigator: the live page as it looks now (the last screencast frame). */
    async liveImage(userId: string, type: ExtractorType): Promise<LiveImageResponse> {
      const record = await current(userId, type);
      const answer = await command<{
        ok: true;
        image: string;
        pageUrl: string;
        width: number;
        height: number;
      }>(userId, record, (sessionId) => ({ command: 'image', sessionId, userId }), QUICK_TIMEOUT_MS);
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
      const answer = await command<MaskPreviewResponse & { ok: true }>(
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
    async actionPage(userId: string, type: ExtractorType, sequence: number) {
      const record = await current(userId, type);
      const action = find(record, sequence);
      return {
        sequence,
        pageURL: action.pageUrl,
        pageScreenshot: await image(userId, action, 'page'),
        elementScreenshot: await image(userId, action, 'element'),
        target: action.step.target ?? null,
      };
    },

    /**
     * GET /extractor/validate: runs the whole draft from a fresh browser context on the builder's
     * worker, reporting `progress|type` as it goes, then marks each action (spec §4 "Validate").
     */
    async validate(
      userId: string,
      type: ExtractorType,
      onProgress: (progress: number, actionType: string) => void,
    ): Promise<ValidationResult> {
      return store.withLock(userId, type, async (renew) => {
        const record = await current(userId, type);
        await assertEditable(userId, record);
        const ordered = record.actions.sort(bySequence);
        if (ordered.length === 0) throw AppError.validation(MESSAGES['extractor.validate.empty']);
        const run = await repo.createValidationRun(userId, record.extractorId);
        const keepLock = setInterval(() => void renew(), VALIDATE_LOCK_RENEW_MS);
        let answer: ValidateResult | SessionFailure;
        try {
          answer = await command<ValidateResult>(
            userId,
            record,
            (sessionId) => ({
              command: 'validate',
              sessionId,
              userId,
              runId: run.id,
              extractorId: record.extractorId,
              steps: ordered.map((action) => ({
                step: action.step,
                actionId: action.isSaved ? action.id : null,
                sealedSecret: action.sealedSecret,
                secretContext: action.sealedSecret ? actionSecretContext(userId, action.id) : null,
              })),
            }),
            VALIDATE_TIMEOUT_MS,
            (progress) => onProgress(progress.progress, progress.actionType),
          );
        } catch (error) {
          await repo.finishValidationRun(run.id, {
            status: 'ERROR',
            errorCode: null,
            errorMessage: error instanceof Error ? error.message : String(error),
            errorSequence: null,
          });
          throw error;
        } finally {
          clearInterval(keepLock);
        }
        if (!answer.ok) {
          await repo.finishValidationRun(run.id, {
            status: 'ERROR',
            errorCode: answer.code,
            errorMessage: answer.message,
            errorSequence: null,
          });
          throw new AppError('UNPROCESSABLE', automationText(answer));
        }
        const failedAt =
          answer.status === 'SUCCESS'
            ? null
            : (answer.errorSequence ?? answer.steps.at(-1)?.sequence ?? null);
        const errorText = answer.errorMessage
          ? answer.errorCode
            ? `${AUTOMATION_ERRORS[answer.errorCode] ?? 'Error'} (${answer.errorCode}): ${answer.errorMessage}`
            : answer.errorMessage
          : answer.status === 'STOPPED'
            ? 'The validation was stopped.'
            : null;
        const stepsBySequence = new Map(answer.steps.map((step) => [step.sequence, step]));
        for (const action of ordered) {
          const sequence = action.step.sequence;
          const step = stepsBySequence.get(sequence);
          if (failedAt === null || sequence < failedAt) {
            action.validation = 'SUCCESS';
            action.errorMessage = null;
          } else if (sequence === failedAt) {
            action.validation = 'ERROR';
            action.errorMessage = errorText;
          } else {
            action.validation = 'NOTVALIDATED';
            action.errorMessage = null;
          }
          if (step && step.status !== 'SKIPPED') {
            action.pageUrl = step.pageUrl;
            action.timestamp = step.timestamp;
            await storeImages(userId, action, step.pageScreenshot, step.elementScreenshot);
          }
        }
        await store.put(userId, record);
        await repo.finishValidationRun(run.id, {
          status: answer.status,
          errorCode: answer.errorCode,
          errorMessage: errorText,
          errorSequence: failedAt,
        });
        return {
          error: failedAt === null ? null : errorText,
          code: answer.errorCode,
          data: {
            sequence: failedAt,
            actions: ordered.map((action) => ({
              sequence: action.step.sequence,
              validation: action.validation,
              errorMessage: action.errorMessage,
            })),
          },
        };
      });
    },

    /** PUT /extractor/edit: saves the validated draft in one transaction (the old flow stays on failure). */
    async save(
      userId: string,
      type: ExtractorType,
      header: { name?: string | undefined; description?: string | undefined },
    ): Promise<BuilderView> {
      return store.withLock(userId, type, async () => {
        const record = await current(userId, type);
        await assertEditable(userId, record);
        const ordered = record.actions.sort(bySequence);
        if (
          !isNavigator(type) &&
          (ordered.length === 0 || ordered.some((action) => action.validation !== 'SUCCESS'))
        )
          throw AppError.validation(MESSAGES['extractor.must.validate']);
        const toSave: ActionToSave[] = [];
        for (const action of ordered) {
          const pageImage = action.hasDraftPageScreenshot
            ? await store.getImage(userId, action.id, 'page')
            : null;
          const elementImage = action.hasDraftElementScreenshot
            ? await store.getImage(userId, action.id, 'element')
            : null;
          toSave.push({
            parts: toActionRowParts(action.step, {
              id: action.id,
              sealedSecret: action.sealedSecret ? fromJson(action.sealedSecret) : null,
              saveOptionsFlag: action.saveOptionsFlag,
              pageUrl: action.pageUrl,
              isValidated: action.validation === 'SUCCESS',
              validationError: action.errorMessage,
              pageScreenshotFileId: action.pageScreenshotFileId,
              elementScreenshotFileId: action.elementScreenshotFileId,
            }),
            ...(pageImage
              ? {
                  pageImage: {
                    name: `action-${action.id}-page.jpg`,
                    mimeType: 'image/jpeg',
                    content: pageImage,
                  },
                }
              : {}),
            ...(elementImage
              ? {
                  elementImage: {
                    name: `action-${action.id}-element.jpg`,
                    mimeType: 'image/jpeg',
                    content: elementImage,
                  },
                }
              : {}),
          });
        }
        try {
          await repo.saveFlow(userId, record.extractorId, header, toSave);
        } catch (error) {
          if (isPrismaError(error, 'P2002'))
            throw new AppError('NAME_EXISTS', MESSAGES['extractor.list.error.unique'], 'name');
          if (isPrismaError(error, 'P2003'))
            throw new AppError('CONFLICT', MESSAGES['extractor.delete.dataset']);
          if (isPrismaError(error, 'P2025')) throw AppError.notFound();
          throw error;
        }
        // The draft now mirrors the saved rows (their ids, their stored screenshots).
        const saved = await repo.findOwnedExtractor(userId, record.extractorId);
        if (!saved) throw AppError.notFound();
        const values = new Map(record.actions.map((action) => [action.id, action.value]));
        record.actions = saved.actions.map((row) => ({
          ...draftOf(row, userId),
          value: values.get(row.id) ?? null,
        }));
        for (const action of ordered) {
          await store.dropImage(userId, action.id, 'page');
          await store.dropImage(userId, action.id, 'element');
        }
        await store.put(userId, record);
        return view(userId, record);
      });
    },

    /** GET /extractor/end: closes the builder and its browser; a navigator's screen share ends. */
    async end(userId: string, type: ExtractorType): Promise<void> {
      await store.withLock(userId, type, async () => {
        const record = await store.get(userId, type);
        if (!record) return;
        await closeLive(userId, record);
        if (record.shareRunId) await repo.finishShareRun(record.shareRunId, record.extractorId);
        for (const action of record.actions) {
          await store.dropImage(userId, action.id, 'page');
          await store.dropImage(userId, action.id, 'element');
        }
        await store.remove(userId, type);
      });
    },
  };
}
export type BuilderService = ReturnType<typeof createBuilderService>;
