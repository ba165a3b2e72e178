import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  AddActionInput,
  BuilderAction,
  BuilderState,
  BuilderView,
  ExtractorType,
  ValidationResult,
} from '@pagewright/shared';
import { ApiError, errorText, isApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import {
  addAction as addActionCall,
  changeAction as changeActionCall,
  changeSequence as changeSequenceCall,
  deleteAction as deleteActionCall,
  resequence as resequenceCall,
} from '../api/action-calls';
import { endBuilder, saveBuilder } from '../api/builder-lifecycle';
import { getCurrentBuilder, openBuilder } from '../api/open-builder';
import { getActionScreenshot, getAllScreenshots } from '../api/page-calls';
import { validateBuilder, type ValidationProgress } from '../api/validate-builder';
import { BUILDER_TEXTS, builderKindOf } from '../builder-texts';
import type { EngineCarrier } from './use-engine-data';

/** An action being added: its card shows (pulsing) while the page runs it. */
export interface PendingAction {
  type: AddActionInput['type'];
  sequence: number | null;
}

const SESSION_LOST = 'SESSION_LOST';

const bySequence = (a: BuilderAction, b: BuilderAction) => a.sequence - b.sequence;

/** An action and the answers to the dialogs it raised (the API removes them together). */
function removedWith(actions: readonly BuilderAction[], action: BuilderAction): Set<string> {
  const ordered = [...actions].sort(bySequence);
  const removed = new Set([action.id]);
  for (
    let index = ordered.findIndex((candidate) => candidate.id === action.id) + 1;
    index < ordered.length;
    index += 1
  ) {
    const next = ordered[index] as BuilderAction;
    if (next.type !== 'ANSWER_DIALOG') break;
    removed.add(next.id);
  }
  return removed;
}

/** Applies a validation result to the cards (spec §4 "Validate"). */
function withValidation(view: BuilderView, result: ValidationResult): BuilderView {
  const marks = new Map(result.data.actions.map((mark) => [mark.sequence, mark]));
  const actions = view.actions.map((action) => {
    const mark = marks.get(action.sequence);
    return mark ? { ...action, validation: mark.validation, errorMessage: mark.errorMessage } : action;
  });
  return {
    ...view,
    actions,
    isValidated: actions.length > 0 && actions.every((action) => action.validation === 'SUCCESS'),
    // As the API keeps it: a success stays VALIDATING, a failure returns to NONE.
    state: result.error === null ? 'VALIDATING' : 'NONE',
  };
}

export interface UseBuilderOptions {
  extractorType: ExtractorType;
  /** The item to open (router state or ?id=). */
  itemId: string;
  isReadOnlyEdit: boolean;
  /** Each POST /extractor/ answer: what it carries of the F-engine (investors, an investor's fields). */
  onEngineData?: (carrier: EngineCarrier) => void;
}

/**
 * The builder's state machine (spec §4): the draft as the API keeps it, the builder state
 * (NONE, CREATING, EDITING, VALIDATING, VALIDATING_EDITING), the element pictures, and every call
 * that changes the draft. Errors show in the Error modal, a lost live page too (the next
 * call opens a fresh one).
 */
export function useBuilder({ extractorType, itemId, isReadOnlyEdit, onEngineData }: UseBuilderOptions) {
  const { t } = useTranslation();
  const kind = builderKindOf(extractorType);
  const texts = BUILDER_TEXTS[kind];
  const [view, setView] = useState<BuilderView | null>(null);
  /** The saved item was opened afresh (its live page is blank), not a builder kept open. */
  const [isOpenedAfresh, setOpenedAfresh] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [state, setState] = useState<BuilderState>('NONE');
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [editingId, setEditingId] = useState<string | null>(null);
  const [validation, setValidation] = useState<ValidationProgress | null>(null);
  const [pictures, setPictures] = useState<Readonly<Record<string, string | null>>>({});
  const [errorMessage, setErrorMessage] = useState<string | null>(null);
  /** Bumped whenever the live page may have changed (areas are read again). */
  const [pageVersion, setPageVersion] = useState(0);
  // Callbacks read the latest state and draft without being re-created on every change.
  const stateRef = useRef(state);
  const viewRef = useRef(view);
  useEffect(() => {
    stateRef.current = state;
    viewRef.current = view;
  }, [state, view]);

  const fail = useCallback((error: unknown) => {
    if (isApiError(error, 409) && error.code === SESSION_LOST) {
      // The spec's Error dialog, not a toast that fades: the page the operator saw is gone.
      setErrorMessage(error.message);
      setPageVersion((version) => version + 1);
      return;
    }
    setErrorMessage(errorText(error));
  }, []);

  const loadPictures = useCallback(
    async (actions: readonly BuilderAction[], isForced = false) => {
      // After a validation the pictures are fresh while the draft's flags were read before it.
      if (!isForced && !actions.some((action) => action.hasElementScreenshot)) return;
      try {
        const bySequenceKey = await getAllScreenshots(extractorType);
        setPictures(
          Object.fromEntries(
            actions.map((action) => [action.id, bySequenceKey[String(action.sequence)] ?? null]),
          ),
        );
      } catch (error) {
        fail(error);
      }
    },
    [extractorType, fail],
  );

  const loadPicture = useCallback(
    async (action: BuilderAction) => {
      if (!action.hasElementScreenshot) {
        setPictures((current) => ({ ...current, [action.id]: null }));
        return;
      }
      try {
        const shot = await getActionScreenshot(extractorType, action.sequence);
        setPictures((current) => ({ ...current, [action.id]: shot.elementScreenshot }));
      } catch (error) {
        fail(error);
      }
    },
    [extractorType, fail],
  );

  // Opening (spec §2): the draft already open for this item is kept (a reload, or a navigator the
  // entry route has just started); otherwise the saved item is opened.
  useEffect(() => {
    let isCurrent = true;
    const open = async (): Promise<BuilderView> => {
      try {
        const current = await getCurrentBuilder(extractorType);
        if (current.id === itemId) return current;
      } catch (error) {
        if (!isApiError(error, 404)) throw error;
      }
      const opened = await openBuilder(itemId);
      if (isCurrent) setOpenedAfresh(true);
      return opened;
    };
    open()
      .then((opened) => {
        if (!isCurrent) return;
        setView(opened);
        // A tab reloaded after a successful validation is still VALIDATING (spec §4).
        setState(opened.state);
        void loadPictures(opened.actions);
      })
      .catch((error: unknown) => isCurrent && setLoadError(error));
    return () => {
      isCurrent = false;
    };
  }, [extractorType, itemId, loadPictures]);

  const actions = useMemo(() => view?.actions ?? [], [view]);
  const first = actions[0];
  /** readOnlyEdit (spec §5): a saved item cannot be edited, validated, re-sequenced or saved. */
  const isLocked = isReadOnlyEdit && first?.isSaved === true;
  const isValidating = validation !== null;
  const isBusy = pending !== null || isValidating;
  /**
   * Spec §4: the card menu shows in NONE (Edit, Edit sequence, Remove) and while creating or editing
   * (Cancel); none during a validation, nor after a successful one (it stays VALIDATING until the
   * next change or Save), nor while an action runs, nor on a saved item under readOnlyEdit.
   */
  const hasCardMenu = state !== 'VALIDATING' && state !== 'VALIDATING_EDITING' && !isBusy && !isLocked;

  const changed = (next: (current: BuilderView) => BuilderView) =>
    setView((current) => (current ? next(current) : current));

  /** Leaves VALIDATING after a successful validation: the flow changed since (the API does too). */
  const afterChange = () => setState('NONE');

  const beginAdding = useCallback(() => setState('CREATING'), []);
  const beginEditing = useCallback((action: BuilderAction) => {
    setEditingId(action.id);
    setState('EDITING');
  }, []);
  const cancel = useCallback(() => {
    setEditingId(null);
    setState('NONE');
  }, []);

  /** POST /extractor/: runs the action on the live page; rejects (dialog stays open) on failure. */
  const addAction = useCallback(
    async (input: AddActionInput): Promise<void> => {
      setPending({ type: input.type, sequence: input.sequence ?? null });
      try {
        const answer = await addActionCall(extractorType, input);
        onEngineData?.(answer);
        changed((current) => ({
          ...current,
          actions: [...current.actions, answer.action, ...answer.dialogActions].sort(bySequence),
          isValidated: false,
        }));
        afterChange();
        setPageVersion((version) => version + 1);
        void loadPicture(answer.action);
      } catch (error) {
        if (isApiError(error) && error.hasServerMessage) fail(error);
        else setErrorMessage(t(texts.executeError));
        throw error;
      } finally {
        setPending(null);
      }
    },
    [extractorType, fail, loadPicture, onEngineData, t, texts],
  );

  /** Adds an action that needs no dialog (scrolls, back/forward, END, mouse actions, typing). */
  const addDirectly = useCallback(
    (input: AddActionInput) => addAction(input).catch(() => undefined),
    [addAction],
  );

  /** POST /extractor/action: the changed action needs validating again; its element picture is gone. */
  const changeAction = useCallback(
    async (action: BuilderAction, input: AddActionInput): Promise<void> => {
      const { type: _type, sequence: _sequence, ...fields } = input;
      try {
        const changedAction = await changeActionCall(extractorType, { ...fields, sequence: action.sequence });
        changed((current) => ({
          ...current,
          actions: current.actions.map((candidate) =>
            candidate.id === action.id ? changedAction : candidate,
          ),
          isValidated: false,
        }));
        setPictures((current) => ({ ...current, [action.id]: null }));
        setEditingId(null);
        afterChange();
      } catch (error) {
        fail(error);
        throw error;
      }
    },
    [extractorType, fail],
  );

  /** Stable for the memoized cards: the first action cannot be removed or moved (spec §5). */
  const isFirstAction = useCallback(
    (action: BuilderAction) => viewRef.current?.actions[0]?.id === action.id,
    [],
  );

  /** DELETE /extractor/action: never the first action (a warning, nothing sent); then re-validate. */
  const removeAction = useCallback(
    async (action: BuilderAction) => {
      if (isFirstAction(action)) {
        toast.warning(t('extractor.first.action.delete.warning'));
        return;
      }
      try {
        await deleteActionCall(extractorType, action.sequence);
        changed((current) => ({
          ...current,
          actions: current.actions
            .filter((candidate) => !removedWith(current.actions, action).has(candidate.id))
            .map((candidate) => ({ ...candidate, validation: 'NOTVALIDATED' as const })),
          isValidated: false,
        }));
        afterChange();
        toast.warning(t(texts.actionDeleted));
      } catch (error) {
        fail(error);
      }
    },
    [extractorType, fail, isFirstAction, t, texts],
  );

  /** PUT /extractor/sequence (the sequence dialog); rejects so the dialog stays open. */
  const changeSequence = useCallback(
    async (action: BuilderAction, newSequence: number): Promise<void> => {
      try {
        const next = await changeSequenceCall(extractorType, action.sequence, newSequence);
        setView(next);
        afterChange();
        toast.success(t('extractor.sequence.change.success'));
      } catch (error) {
        fail(error);
        throw error;
      }
    },
    [extractorType, fail, t],
  );

  /** GET /extractor/resequence, then the draft again (pictures stay: they are kept by action id). */
  const resequence = useCallback(async () => {
    try {
      await resequenceCall(extractorType);
      setView(await getCurrentBuilder(extractorType));
      afterChange();
    } catch (error) {
      if (isApiError(error) && error.hasServerMessage) fail(error);
      else setErrorMessage(t(texts.resequenceError));
    }
  }, [extractorType, fail, t, texts]);

  /**
   * GET /extractor/validate (spec §4): NONE → VALIDATING, EDITING → VALIDATING_EDITING. A success
   * stays VALIDATING (the flow as validated, ready to save; no card menu) until the next change or
   * Save; a failure goes back to where it came from, with the failing card in ERROR.
   */
  const validate = useCallback(async () => {
    const from = stateRef.current;
    setState(from === 'EDITING' ? 'VALIDATING_EDITING' : 'VALIDATING');
    setValidation({ progress: 0, actionType: '' });
    try {
      const result = await validateBuilder(extractorType, setValidation);
      changed((current) => withValidation(current, result));
      setPageVersion((version) => version + 1);
      const current = viewRef.current;
      if (current) void loadPictures(current.actions, true);
      if (result.error === null) {
        toast.success(t(texts.validateSuccess));
      } else {
        setState(from === 'EDITING' ? 'EDITING' : 'NONE');
        setErrorMessage(result.error);
      }
    } catch (error) {
      setState(from === 'EDITING' ? 'EDITING' : 'NONE');
      fail(error);
    } finally {
      setValidation(null);
    }
  }, [extractorType, fail, loadPictures, t, texts]);

  /** PUT /extractor/edit: only a validated draft (navigators record without validating). */
  const save = useCallback(async () => {
    const current = viewRef.current;
    if (!current) return;
    if (kind !== 'navigator' && !current.isValidated) {
      toast.warning(t(texts.mustValidate));
      return;
    }
    try {
      const saved = await saveBuilder(extractorType);
      setView(saved);
      // Saved, the flow is where editing goes on from: VALIDATING gives way to NONE.
      setState(saved.state);
      toast.success(t(texts.saveSuccess));
    } catch (error) {
      if (error instanceof ApiError && error.hasServerMessage) fail(error);
      else setErrorMessage(t(texts.saveError));
    }
  }, [extractorType, fail, kind, t, texts]);

  /** GET /extractor/end. A builder already gone (404) counts as closed. */
  /** Set once the builder was finished (Close, or leaving the screen): it is not finished twice. */
  const isFinished = useRef(false);
  const close = useCallback(async (): Promise<boolean> => {
    try {
      isFinished.current = true;
      await endBuilder(extractorType);
      return true;
    } catch (error) {
      if (isApiError(error, 404)) return true;
      isFinished.current = false;
      if (error instanceof ApiError && error.hasServerMessage) fail(error);
      else setErrorMessage(t(texts.finishError));
      return false;
    }
  }, [extractorType, fail, t, texts]);

  // Leaving the builder for another screen (Home, Settings…) finishes its session (spec: "Clicking
  // Home finishes the current session"): its browser closes now instead of idling 15 minutes.
  // Deferred: React's development double mount unmounts and mounts again at once, which cancels it.
  const pendingFinish = useRef<number | undefined>(undefined);
  useEffect(() => {
    window.clearTimeout(pendingFinish.current);
    return () => {
      if (isFinished.current) return;
      pendingFinish.current = window.setTimeout(() => {
        isFinished.current = true;
        void endBuilder(extractorType).catch(() => undefined);
      }, 0);
    };
  }, [extractorType]);

  const pagesChanged = useCallback(() => setPageVersion((version) => version + 1), []);

  /** Reads the draft again (after a replay: the cards show what the API keeps). */
  const refresh = useCallback(async () => {
    try {
      const current = await getCurrentBuilder(extractorType);
      setView(current);
      void loadPictures(current.actions);
    } catch (error) {
      fail(error);
    }
  }, [extractorType, fail, loadPictures]);

  return {
    kind,
    texts,
    view,
    loadError,
    actions,
    state,
    pending,
    editingId,
    validation,
    pictures,
    errorMessage,
    dismissError: useCallback(() => setErrorMessage(null), []),
    showError: useCallback((message: string) => setErrorMessage(message), []),
    fail,
    pageVersion,
    pagesChanged,
    refresh,
    isOpenedAfresh,
    isFirstAction,
    isLocked,
    isValidating,
    isBusy,
    hasCardMenu,
    beginAdding,
    beginEditing,
    cancel,
    addAction,
    addDirectly,
    changeAction,
    removeAction,
    changeSequence,
    resequence,
    validate,
    save,
    close,
  };
}
