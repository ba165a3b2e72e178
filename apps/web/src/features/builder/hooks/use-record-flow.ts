import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ELEMENT_ACTION_TYPES,
  LOOK_AROUND_MAX_PIXELS,
  MULTI_STEP_ASK_TYPES,
  type ActionType,
  type AddActionInput,
  type BuilderAction,
  type ElementTarget,
  type EvaluatePointResponse,
  type ExtractorType,
  type PageElementArea,
  type Point,
  type TableDefinition,
} from '@pagewright/shared';
import { toast } from '../../../lib/toast';
import { evaluatePoint, lookAround } from '../api/page-calls';
import { NO_PICK, type PagePick } from '../components/dialogs/get-table-state';
import { needsActionDialog } from '../components/dialogs/needs-action-dialog';
import type { useBuilder } from './use-builder';

/** Actions placed at a point of the page rather than on an element. */
const POINT_ACTION_TYPES: readonly ActionType[] = ['MOUSE_CLICK', 'MOUSE_MOVE'];
/** Multi-step asks: first the area showing the question or captcha, then the answer field (spec §4). */
/** Element picking also covers the reCAPTCHA widget (its selector is picked first, spec §4). */
const PICKED_TYPES: readonly ActionType[] = [...ELEMENT_ACTION_TYPES, 'ASK_RECAPTCHA'];

/** Where the builder is in adding or changing one action. */
type Flow =
  | { step: 'idle' }
  | { step: 'point'; type: ActionType }
  | { step: 'pick'; type: ActionType; phase: 'element' | 'question' | 'answer'; questionSelector?: string }
  | {
      step: 'add';
      type: ActionType;
      target: ElementTarget | null;
      extra: Partial<AddActionInput>;
      /** The picked select's options, offered by the CLICK_SELECT dialog. */
      selectOptions?: EvaluatePointResponse['selectOptions'];
    }
  | { step: 'table'; input: AddActionInput }
  | { step: 'edit'; action: BuilderAction }
  | { step: 'sequence'; action: BuilderAction };

const IDLE: Flow = { step: 'idle' };

function targetOf(element: EvaluatePointResponse): ElementTarget {
  return {
    selectorType: element.selectorType,
    selectorValue: element.selectorValue,
    xpathValue: element.xpathValue,
    framePath: element.framePath,
    fallbackLocators: element.fallbackLocators,
  };
}

/**
 * The pick → dialog → save flow of one action (issue 22 item 13): which step the builder is in,
 * what the page view's clicks, typing and wheel mean in it, and how each dialog's answer is saved.
 * The builder screen lays it out; this hook decides.
 */
export function useRecordFlow(
  extractorType: ExtractorType,
  builder: ReturnType<typeof useBuilder>,
  replayToStep: (sequence: number) => Promise<unknown>,
) {
  const { t } = useTranslation();
  const {
    actions,
    fail,
    isFirstAction,
    cancel,
    beginAdding,
    beginEditing,
    addAction,
    addDirectly,
    changeAction,
    pagesChanged,
  } = builder;
  const [flow, setFlow] = useState<Flow>(IDLE);
  const [pick, setPick] = useState<PagePick>(NO_PICK);
  const [highlightedAreaId, setHighlightedAreaId] = useState<string | null>(null);
  const [lastClick, setLastClick] = useState<Point | null>(null);
  const [isPointing, setIsPointing] = useState(false);

  const finish = useCallback(() => {
    setFlow(IDLE);
    setPick(NO_PICK);
    setHighlightedAreaId(null);
    cancel();
  }, [cancel]);

  const choose = useCallback(
    (type: ActionType) => {
      beginAdding();
      if (POINT_ACTION_TYPES.includes(type)) setFlow({ step: 'point', type });
      else if (MULTI_STEP_ASK_TYPES.includes(type)) setFlow({ step: 'pick', type, phase: 'question' });
      else if (PICKED_TYPES.includes(type)) setFlow({ step: 'pick', type, phase: 'element' });
      else if (!needsActionDialog(type)) {
        void addDirectly({ type }).finally(finish);
      } else setFlow({ step: 'add', type, target: null, extra: {} });
    },
    [beginAdding, addDirectly, finish],
  );

  /** Typing into the page view: TYPE_TEXT (or TYPE_PASSWORD) into the field clicked last. */
  const typeText = useCallback(
    async (text: string) => {
      if (!lastClick) {
        toast.info(t('builder.typing.no.field'));
        return;
      }
      setIsPointing(true);
      try {
        const element = await evaluatePoint(extractorType, lastClick);
        if (element.type === 'INPUTABLE_PASSWORD')
          await addDirectly({ type: 'TYPE_PASSWORD', target: targetOf(element), credentials: text });
        else if (element.type === 'INPUTABLE_TEXT')
          await addDirectly({ type: 'TYPE_TEXT', target: targetOf(element), textValue: text });
        else toast.info(t('builder.typing.no.field'));
      } catch (error) {
        fail(error);
      } finally {
        setIsPointing(false);
      }
    },
    [addDirectly, extractorType, fail, lastClick, t],
  );

  const onPagePoint = useCallback(
    async (point: Point, area: PageElementArea | null) => {
      if (flow.step === 'table') {
        setPick((last) => ({ serial: last.serial + 1, selector: area?.selector ?? null }));
        return;
      }
      if (flow.step === 'point') {
        setFlow(IDLE);
        await addDirectly({ type: flow.type, options: { point } });
        cancel();
        return;
      }
      if (flow.step === 'idle') {
        // Recording: a click on the page is a mouse click of the flow (how navigators record).
        if (actions.length === 0) {
          toast.warning(t('extractor.first.action.navigate'));
          return;
        }
        setLastClick(point);
        await addDirectly({ type: 'MOUSE_CLICK', options: { point } });
        return;
      }
      if (flow.step !== 'pick') return;
      setIsPointing(true);
      try {
        const element = await evaluatePoint(extractorType, point);
        if (flow.phase === 'question') {
          setFlow({ ...flow, phase: 'answer', questionSelector: element.selectorValue });
          return;
        }
        const extra: Partial<AddActionInput> = flow.questionSelector
          ? {
              options: {
                askMultiStepDto: {
                  builderStep: 'USER_RESPONSE',
                  askDataContentSelector: flow.questionSelector,
                },
              },
            }
          : {};
        setFlow({
          step: 'add',
          type: flow.type,
          target: targetOf(element),
          extra,
          selectOptions: element.selectOptions,
        });
      } catch (error) {
        fail(error);
      } finally {
        setIsPointing(false);
      }
    },
    [actions.length, addDirectly, cancel, extractorType, fail, flow, t],
  );

  const confirmAdd = useCallback(
    async (input: AddActionInput) => {
      if (flow.step !== 'add') return;
      const merged: AddActionInput = {
        ...input,
        options: { ...flow.extra.options, ...input.options },
      };
      if (merged.type === 'GET_TABLE') {
        setFlow({ step: 'table', input: merged });
        return;
      }
      await addAction(merged);
      finish();
    },
    [addAction, finish, flow],
  );

  const confirmTable = useCallback(
    async (table: TableDefinition) => {
      if (flow.step !== 'table') return;
      try {
        await addAction({ ...flow.input, options: { ...flow.input.options, table } });
        finish();
      } catch {
        // The error is on screen; the panel stays open to try again.
      }
    },
    [addAction, finish, flow],
  );

  /** A table keeps its picked selectors and columns when only its name changes in the dialog. */
  const confirmEdit = useCallback(
    async (action: BuilderAction, input: AddActionInput) => {
      const table = action.options.table;
      const name = input.options?.table?.name;
      const merged: AddActionInput =
        table && name ? { ...input, options: { ...input.options, table: { ...table, name } } } : input;
      await changeAction(action, merged);
      finish();
    },
    [changeAction, finish],
  );

  const edit = useCallback(
    (action: BuilderAction) => {
      if (!needsActionDialog(action.type)) {
        toast.info(t('extractor.edition.info'));
        return;
      }
      // The page goes where the step found it, so its element can be seen (and picked) again.
      void replayToStep(action.sequence)
        .then(() => pagesChanged())
        .catch((error: unknown) => fail(error))
        .finally(() => {
          beginEditing(action);
          setFlow({ step: 'edit', action });
        });
    },
    [beginEditing, fail, pagesChanged, replayToStep, t],
  );

  /** The wheel over the page view is recorded as a scroll by what the operator turned. */
  const recordWheel = useCallback(
    (deltaY: number, point: Point) =>
      void addDirectly({
        type: deltaY > 0 ? 'SCROLL_DOWN' : 'SCROLL_UP',
        options: { number: Math.abs(deltaY), point },
      }),
    [addDirectly],
  );

  /** The wheel while picking: the live page moves (nothing recorded) so what is below can be picked. */
  const lookAroundWheel = useCallback(
    async (deltaY: number, point: Point) => {
      try {
        const pixels = Math.max(-LOOK_AROUND_MAX_PIXELS, Math.min(LOOK_AROUND_MAX_PIXELS, deltaY));
        await lookAround(extractorType, { deltaY: pixels, point });
        pagesChanged();
      } catch (error) {
        fail(error);
      }
    },
    [extractorType, fail, pagesChanged],
  );

  const editSequence = useCallback(
    (action: BuilderAction) => {
      if (isFirstAction(action)) {
        toast.warning(t('extractor.first.action.change.warning'));
        return;
      }
      setFlow({ step: 'sequence', action });
    },
    [isFirstAction, t],
  );

  return {
    flow,
    pick,
    highlightedAreaId,
    setHighlightedAreaId,
    isPointing,
    finish,
    choose,
    typeText,
    onPagePoint,
    confirmAdd,
    confirmTable,
    confirmEdit,
    edit,
    recordWheel,
    lookAroundWheel,
    editSequence,
  };
}
