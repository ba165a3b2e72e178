import type { ActionType, ExtractorType, MessageKey } from '@pagewright/shared';
import { ASK_ACTION_TYPES, FENGINE_ACTION_TYPES } from '@pagewright/shared';

/** Which wording a builder uses (spec §8: insertor and screen share word the same events their own way). */
export type BuilderKind = 'extractor' | 'insertor' | 'navigator';

export function builderKindOf(extractorType: ExtractorType): BuilderKind {
  if (extractorType === 'INSERTOR' || extractorType === 'FENGINE_INSERTOR') return 'insertor';
  if (extractorType === 'NAVIGATOR' || extractorType === 'FENGINE_NAVIGATOR') return 'navigator';
  return 'extractor';
}

type BuilderEvent =
  | 'reloadError'
  | 'resequenceError'
  | 'mustValidate'
  | 'executeError'
  | 'finishError'
  | 'validateSuccess'
  | 'saveSuccess'
  | 'saveError'
  | 'actionDeleted';

/** The MESSAGES key of each builder event per kind; the extractor's wording where a kind has none. */
export const BUILDER_TEXTS = {
  extractor: {
    reloadError: 'extractor.normalized.error',
    resequenceError: 'extractor.resequence.error',
    mustValidate: 'extractor.must.validate',
    executeError: 'extractor.execute.error',
    finishError: 'extractor.finish.error',
    validateSuccess: 'extractor.validate.success',
    saveSuccess: 'extractor.save.success',
    saveError: 'extractor.save.error',
    actionDeleted: 'extractor.action.deleted',
  },
  insertor: {
    reloadError: 'insertor.normalized.error',
    resequenceError: 'insertor.resequence.error',
    mustValidate: 'insertor.must.validate',
    executeError: 'insertor.execute.error',
    finishError: 'insertor.finish.error',
    validateSuccess: 'insertor.validate.success',
    saveSuccess: 'insertor.save.success',
    saveError: 'insertor.save.error',
    actionDeleted: 'insertor.action.deleted',
  },
  navigator: {
    reloadError: 'navigator.reload.error',
    resequenceError: 'extractor.resequence.error',
    mustValidate: 'extractor.must.validate',
    executeError: 'navigator.execute.error',
    finishError: 'navigator.finish.error',
    validateSuccess: 'extractor.validate.success',
    saveSuccess: 'navigator.save.success',
    saveError: 'navigator.save.error',
    actionDeleted: 'navigator.action.deleted',
  },
} as const satisfies Record<BuilderKind, Record<BuilderEvent, MessageKey>>;

/** The left menu's groups, in the order an operator builds a flow. */
const ACTION_GROUPS = [
  {
    id: 'navigation',
    types: ['NAVIGATE', 'GO_BACK', 'GO_FORWARD', 'SCROLL_UP', 'SCROLL_DOWN', 'SCROLL_TOP', 'SCROLL_BOTTOM'],
  },
  {
    id: 'interaction',
    types: ['CLICK', 'TYPE_TEXT', 'TYPE_PASSWORD', 'CLICK_SELECT', 'MOVE', 'MOUSE_CLICK', 'MOUSE_MOVE'],
  },
  { id: 'read', types: ['GET_TEXT', 'GET_NUMBER', 'GET_DATE', 'GET_TABLE', 'GET_IMAGE', 'GET_FILE'] },
  {
    id: 'wait',
    types: [
      'WAIT',
      'WAIT_UNTIL_EXISTS',
      'WAIT_UNTIL_NOT_EXISTS',
      'WAIT_UNTIL_DISPLAYED',
      'WAIT_UNTIL_NOT_DISPLAYED',
      'WAIT_UNTIL_ENABLED',
      'WAIT_UNTIL_NOT_ENABLED',
      'CHECK_TEXT',
    ],
  },
  {
    id: 'condition',
    types: [
      'CLICK_IF_EXISTS',
      'CLICK_IF_DISPLAYED',
      'CLICK_IF_ENABLED',
      'IF_EXISTS',
      'IF_NOT_EXISTS',
      'IF_DISPLAYED',
      'IF_NOT_DISPLAYED',
      'IF_ENABLED',
      'IF_NOT_ENABLED',
      'IF_CONDITION',
    ],
  },
  {
    id: 'ask',
    types: ASK_ACTION_TYPES,
  },
  { id: 'flow', types: ['SCRIPT', 'RAISE_ERROR', 'END'] },
  { id: 'fengine', types: [...FENGINE_ACTION_TYPES] },
] as const satisfies readonly { id: string; types: readonly ActionType[] }[];

export type ActionGroupId = (typeof ACTION_GROUPS)[number]['id'];

/** The offered actions in their groups; empty groups are left out. */
export function groupActionTypes(
  offered: readonly ActionType[],
): { id: ActionGroupId; types: ActionType[] }[] {
  return ACTION_GROUPS.map((group) => ({
    id: group.id,
    types: (group.types as readonly ActionType[]).filter((type) => offered.includes(type)),
  })).filter((group) => group.types.length > 0);
}
