import type { ActionType } from '@pagewright/shared';
import { EXTRACTOR_ACTION_TYPES, FENGINE_ACTION_TYPES } from '@pagewright/shared';
import type { ActionExecutor } from './action-context.js';
import { answerDialog } from './answer-dialog.js';
import { ask } from './ask.js';
import { checkText } from './check-text.js';
import {
  click,
  clickSelect,
  getDate,
  getImage,
  getNumber,
  getText,
  move,
  typePassword,
  typeText,
} from './element-actions.js';
import { askEngineInvestor, askEngineSignIn, typeEngineField } from './fengine-actions.js';
import { getFile } from './get-file.js';
import { getTable } from './get-table.js';
import {
  end,
  goBack,
  goForward,
  mouseClick,
  mouseMove,
  navigate,
  raiseError,
  scroll,
  wait,
} from './page-actions.js';
import { runScript } from './script.js';
import { clickIf, ifCondition, ifState, waitUntil } from './state-actions.js';

export type ExtractorActionType = (typeof EXTRACTOR_ACTION_TYPES)[number];

/** One executor per action type of the extractor set (automation spec §3). */
export const ACTION_EXECUTORS: Readonly<Record<ExtractorActionType, ActionExecutor>> = {
  NAVIGATE: navigate,
  CLICK: click,
  TYPE_TEXT: typeText,
  CLICK_SELECT: clickSelect,
  TYPE_PASSWORD: typePassword,
  GET_TEXT: getText,
  GET_NUMBER: getNumber,
  GET_DATE: getDate,
  GET_TABLE: getTable,
  GET_IMAGE: getImage,
  GET_FILE: getFile,
  MOVE: move,
  WAIT: wait,
  RAISE_ERROR: raiseError,
  WAIT_UNTIL_EXISTS: waitUntil,
  WAIT_UNTIL_NOT_EXISTS: waitUntil,
  WAIT_UNTIL_DISPLAYED: waitUntil,
  WAIT_UNTIL_NOT_DISPLAYED: waitUntil,
  WAIT_UNTIL_ENABLED: waitUntil,
  WAIT_UNTIL_NOT_ENABLED: waitUntil,
  CHECK_TEXT: checkText,
  CLICK_IF_EXISTS: clickIf,
  CLICK_IF_DISPLAYED: clickIf,
  CLICK_IF_ENABLED: clickIf,
  IF_EXISTS: ifState,
  IF_NOT_EXISTS: ifState,
  IF_DISPLAYED: ifState,
  IF_NOT_DISPLAYED: ifState,
  IF_ENABLED: ifState,
  IF_NOT_ENABLED: ifState,
  IF_CONDITION: ifCondition,
  SCRIPT: runScript,
  END: end,
  SCROLL_UP: scroll,
  SCROLL_DOWN: scroll,
  SCROLL_TOP: scroll,
  SCROLL_BOTTOM: scroll,
  MOUSE_CLICK: mouseClick,
  MOUSE_MOVE: mouseMove,
  GO_BACK: goBack,
  GO_FORWARD: goForward,
  ASK_ID: ask,
  ASK_PASSWORD: ask,
  ASK_CODE: ask,
  ASK_QUESTION: ask,
  ASK_CAPTCHA: ask,
  ASK_RECAPTCHA: ask,
  ANSWER_DIALOG: answerDialog,
};

type EngineActionType = (typeof FENGINE_ACTION_TYPES)[number];

/** The F-engine steps of the insertor set (docs/f-engine.md). */
export const ENGINE_ACTION_EXECUTORS: Readonly<Record<EngineActionType, ActionExecutor>> = {
  ASK_F_ENGINE_URL: askEngineSignIn,
  ASK_F_ENGINE_USER: askEngineSignIn,
  ASK_F_ENGINE_PASSWORD: askEngineSignIn,
  ASK_F_ENGINE_INVESTOR: askEngineInvestor,
  TYPE_F_ENGINE_FIELD: typeEngineField,
};

export function executorFor(type: ActionType): ActionExecutor | undefined {
  return (
    (ACTION_EXECUTORS as Partial<Record<ActionType, ActionExecutor>>)[type] ??
    (ENGINE_ACTION_EXECUTORS as Partial<Record<ActionType, ActionExecutor>>)[type]
  );
}
