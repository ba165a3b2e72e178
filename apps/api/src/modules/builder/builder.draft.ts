import { randomUUID } from 'node:crypto';
import { actionSecretContext } from '@pagewright/db';
import {
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
  type ExecuteResult,
  type ExtractorType,
  type FlowAction,
  type PageDialogAnswer,
  type ResequenceResponse,
  type SealedSecretJson,
  type StepValue,
} from '@pagewright/shared';
import { AppError } from '../../lib/app-error.js';
import {
  actionDeletedMessage,
  automationText,
  bySequence,
  viewOf,
  type BuilderCore,
  type BuilderServiceDeps,
} from './builder.core.js';
import { assertKnownInputs, makeActionInput, stepWithDefaults, withDefaultsText } from './builder.inputs.js';

/** Bounds of one command (an action may WAIT 60 s and then navigate for 30 s). */
const EXECUTE_TIMEOUT_MS = 120_000;

function toJson(sealed: { ciphertext: Buffer; iv: Buffer; authTag: Buffer }): SealedSecretJson {
  return {
    ciphertext: sealed.ciphertext.toString('base64'),
    iv: sealed.iv.toString('base64'),
    authTag: sealed.authTag.toString('base64'),
  };
}

/**
 * The answers the operator gave to the dialogs a step raised while it ran, as ANSWER_DIALOG actions
 * right after it (the engine gives each to the dialog the step before it raises). They take the
 * free sequences after the step; a step with no free sequence after it keeps the ones that fit.
 */
function dialogAnswerActions(
  record: BuilderRecord,
  after: DraftAction,
  dialogs: readonly PageDialogAnswer[],
): DraftAction[] {
  const taken = new Set(record.actions.map((action) => action.step.sequence));
  const created: DraftAction[] = [];
  let sequence = after.step.sequence;
  for (const dialog of dialogs) {
    sequence += 1;
    if (taken.has(sequence)) break;
    created.push({
      ...after,
      id: randomUUID(),
      step: { sequence, type: 'ANSWER_DIALOG', options: { dialog } },
      sealedSecret: null,
      saveOptionsFlag: false,
      value: { kind: 'text', value: dialog.message },
      hasDraftPageScreenshot: false,
      hasDraftElementScreenshot: false,
    });
  }
  return created;
}

/** The ANSWER_DIALOG actions bound to an action: those right after it, in order. */
function boundDialogAnswers(ordered: readonly DraftAction[], action: DraftAction): DraftAction[] {
  const bound: DraftAction[] = [];
  for (let index = ordered.indexOf(action) + 1; index < ordered.length; index += 1) {
    const next = ordered[index] as DraftAction;
    if (next.step.type !== 'ANSWER_DIALOG') break;
    bound.push(next);
  }
  return bound;
}

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
 * Editing the draft (automation spec §2, §5): adding an action (run on the live page as it is
 * added), changing, deleting and moving actions. Every change holds the builder's lock.
 */
export function createDraftEditing(deps: BuilderServiceDeps, core: BuilderCore) {
  const { store, secrets } = deps;
  const { current, view, command, assertEditable, find, storeImages } = core;

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
    const recordedText = request.textValue ?? (base?.sealedSecret ? undefined : base?.step.options.text);
    const textValue = request.makeInput
      ? makeActionInput(record, type, recordedText, request.makeInput)
      : recordedText;
    assertKnownInputs(record, type, textValue);
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
        textValue: type === 'WAIT' ? options.text : withDefaultsText(record, textValue),
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

  function previousValues(record: BuilderRecord, before: number): Record<string, StepValue> {
    const values: Record<string, StepValue> = {};
    for (const action of record.actions)
      if (action.value && action.step.sequence < before) values[String(action.step.sequence)] = action.value;
    return values;
  }

  return {
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
        let dialogActions: DraftAction[] = [];
        if (step.type !== 'RAISE_ERROR') {
          const answer = await command(
            userId,
            record,
            (sessionId) => ({
              command: 'execute',
              sessionId,
              userId,
              step: stepWithDefaults(record, step),
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
          dialogActions = dialogAnswerActions(record, action, result.dialogs);
        }
        record.actions = [...record.actions, action, ...dialogActions].sort(bySequence);
        record.state = 'NONE';
        if (result && (result.managementDTO || result.fserviceDTO))
          record.engine = { managementDTO: result.managementDTO, fserviceDTO: result.fserviceDTO };
        await store.put(userId, record);
        return {
          action: viewOf(action),
          label: step.label ?? null,
          options: viewOf(action).options,
          value: result?.value ?? null,
          pageScreenshot: result?.pageScreenshot ?? null,
          fserviceDTO: result?.fserviceDTO ?? null,
          managementDTO: result?.managementDTO ?? null,
          dialogActions: dialogActions.map(viewOf),
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
        record.state = 'NONE';
        await store.put(userId, record);
        return viewOf(action);
      });
    },

    /**
     * DELETE /extractor/action?sequence=: never the first action; the flow needs validating again.
     * The answers to the dialogs the action raised go with it.
     */
    async deleteAction(userId: string, type: ExtractorType, sequence: number): Promise<string> {
      return store.withLock(userId, type, async () => {
        const record = await current(userId, type);
        await assertEditable(userId, record);
        const action = find(record, sequence);
        const ordered = record.actions.sort(bySequence);
        if (ordered[0] === action)
          throw AppError.validation(MESSAGES['extractor.first.action.delete.warning'], 'sequence');
        const deleted = new Set([action, ...boundDialogAnswers(ordered, action)]);
        record.actions = record.actions.filter((candidate) => !deleted.has(candidate));
        for (const other of record.actions) other.validation = 'NOTVALIDATED';
        for (const gone of deleted) {
          await store.dropImage(userId, gone.id, 'page');
          await store.dropImage(userId, gone.id, 'element');
        }
        record.state = 'NONE';
        await store.put(userId, record);
        return actionDeletedMessage(type);
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
        record.state = 'NONE';
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
        record.state = 'NONE';
        await store.put(userId, record);
        return pairs;
      });
    },
  };
}
