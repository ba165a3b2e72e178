import type { ActionType } from '@pagewright/shared';
import type { UI_LABELS } from '../../../../lib/ui-labels';

type FieldLabel = Extract<keyof typeof UI_LABELS, `dialogs.field.${string}`>;

/**
 * One field the Add/Edit Action dialog shows for a type, below the picked element and above the
 * sequence and label every action has. Each kind holds one part of the form (action-dialog-state.ts).
 */
export type ActionField =
  /** NAVIGATE's address: an http(s) URL. */
  | { kind: 'url' }
  /** A required text; `isTrimmed: false` keeps the spaces a typed text may need. */
  | { kind: 'text'; label: FieldLabel; isTrimmed: boolean }
  | { kind: 'password' }
  /** CLICK_SELECT's option: a list of the picked element's options, else a text field. */
  | { kind: 'option' }
  | { kind: 'seconds' }
  | { kind: 'tableName' }
  | { kind: 'condition' }
  | { kind: 'numberMask' }
  | { kind: 'dateMask' }
  | { kind: 'script' }
  /** An ask's question; optional where the picked area can stand in for it. */
  | { kind: 'question'; isRequired: boolean }
  /**
   * The answer given while adding an ask: typed into the picked element, or for the F-engine's
   * sign-in asks (no element) used to sign the builder in to the engine.
   */
  | { kind: 'answer'; input: 'text' | 'secret' | 'url'; isTypedIntoPage: boolean }
  | { kind: 'saveForNextTime' }
  | { kind: 'nextSequence' }
  | { kind: 'timeout' }
  /** "Make this an input": the text above becomes `{{input.name}}` with the typed text as default. */
  | { kind: 'makeInput' };

const NONE = [] as const satisfies readonly ActionField[];
const TIMED = [{ kind: 'timeout' }] as const satisfies readonly ActionField[];
const IF_ELEMENT = [{ kind: 'nextSequence' }, { kind: 'timeout' }] as const satisfies readonly ActionField[];
const askFields = ({ isRequired, isSecret }: { isRequired: boolean; isSecret: boolean }) =>
  [
    { kind: 'question', isRequired },
    { kind: 'answer', input: isSecret ? 'secret' : 'text', isTypedIntoPage: true },
    { kind: 'saveForNextTime' },
  ] as const satisfies readonly ActionField[];
/** The F-engine's sign-in asks: no element; the answer now signs the builder in to the engine. */
const engineSignInFields = (input: 'text' | 'secret' | 'url') =>
  [
    { kind: 'question', isRequired: true },
    { kind: 'answer', input, isTypedIntoPage: false },
    { kind: 'saveForNextTime' },
  ] as const satisfies readonly ActionField[];

/**
 * The fields of each action type, in the order the dialog shows them; the first gets the focus
 * (types without fields focus the sequence, or the label when the sequence is fixed). A new
 * ActionType does not compile until it is listed here.
 */
export const ACTION_FIELDS = {
  NAVIGATE: [{ kind: 'url' }, { kind: 'makeInput' }],
  CLICK: NONE,
  TYPE_TEXT: [{ kind: 'text', label: 'dialogs.field.text', isTrimmed: false }, { kind: 'makeInput' }],
  CLICK_SELECT: [{ kind: 'option' }],
  TYPE_PASSWORD: [{ kind: 'password' }],
  GET_TEXT: NONE,
  GET_NUMBER: [{ kind: 'numberMask' }],
  GET_DATE: [{ kind: 'dateMask' }],
  /** The name only: the builder completes the table with the Get table panel. */
  GET_TABLE: [{ kind: 'tableName' }],
  GET_IMAGE: NONE,
  GET_FILE: NONE,
  MOVE: NONE,
  WAIT: [{ kind: 'seconds' }],
  RAISE_ERROR: [{ kind: 'text', label: 'dialogs.field.error.message', isTrimmed: true }],
  WAIT_UNTIL_EXISTS: TIMED,
  WAIT_UNTIL_NOT_EXISTS: TIMED,
  WAIT_UNTIL_DISPLAYED: TIMED,
  WAIT_UNTIL_NOT_DISPLAYED: TIMED,
  WAIT_UNTIL_ENABLED: TIMED,
  WAIT_UNTIL_NOT_ENABLED: TIMED,
  /** Waits for its text like an element wait, without an element. */
  CHECK_TEXT: [{ kind: 'text', label: 'dialogs.field.expected.text', isTrimmed: true }, { kind: 'timeout' }],
  CLICK_IF_EXISTS: TIMED,
  CLICK_IF_DISPLAYED: TIMED,
  CLICK_IF_ENABLED: TIMED,
  IF_EXISTS: IF_ELEMENT,
  IF_NOT_EXISTS: IF_ELEMENT,
  IF_DISPLAYED: IF_ELEMENT,
  IF_NOT_DISPLAYED: IF_ELEMENT,
  IF_ENABLED: IF_ELEMENT,
  IF_NOT_ENABLED: IF_ELEMENT,
  IF_CONDITION: [{ kind: 'condition' }, { kind: 'nextSequence' }],
  SCRIPT: [{ kind: 'script' }],
  END: NONE,
  SCROLL_UP: NONE,
  SCROLL_DOWN: NONE,
  SCROLL_TOP: NONE,
  SCROLL_BOTTOM: NONE,
  MOUSE_CLICK: NONE,
  MOUSE_MOVE: NONE,
  GO_BACK: NONE,
  GO_FORWARD: NONE,
  ASK_ID: askFields({ isRequired: true, isSecret: false }),
  ASK_PASSWORD: askFields({ isRequired: true, isSecret: true }),
  ASK_CODE: askFields({ isRequired: true, isSecret: true }),
  /** The picked area's text can stand in for the question (the engine reads it). */
  ASK_QUESTION: askFields({ isRequired: false, isSecret: false }),
  /** Captchas change on every run: their answers are never saved. */
  ASK_CAPTCHA: [
    { kind: 'question', isRequired: false },
    { kind: 'answer', input: 'text', isTypedIntoPage: true },
  ],
  /** Answered by clicking the picked area's tiles, so nothing to type now. */
  ASK_RECAPTCHA: [{ kind: 'question', isRequired: false }],
  ANSWER_DIALOG: NONE,
  ASK_F_ENGINE_USER: engineSignInFields('text'),
  ASK_F_ENGINE_URL: engineSignInFields('url'),
  ASK_F_ENGINE_PASSWORD: engineSignInFields('secret'),
  /** Opens the investor dialog instead. */
  ASK_F_ENGINE_INVESTOR: NONE,
  /** Opens the field selection dialog instead. */
  TYPE_F_ENGINE_FIELD: NONE,
} as const satisfies Record<ActionType, readonly ActionField[]>;
