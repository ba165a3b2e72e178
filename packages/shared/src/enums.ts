/** Enumerations shared by the API, the worker, the SPA and the database schema. */
const values = <const T extends readonly [string, ...string[]]>(...items: T) => items;

export const EXTRACTOR_TYPES = values(
  'EXTRACTOR',
  'INSERTOR',
  'NAVIGATOR',
  'FENGINE_INSERTOR',
  'FENGINE_NAVIGATOR',
);
export type ExtractorType = (typeof EXTRACTOR_TYPES)[number];

export const RUN_STATUSES = values('EXECUTING', 'SUCCESS', 'ERROR', 'STOPPED');
export type RunStatus = (typeof RUN_STATUSES)[number];

export const EXTRACTOR_ACTION_TYPES = values(
  'NAVIGATE',
  'CLICK',
  'TYPE_TEXT',
  'CLICK_SELECT',
  'TYPE_PASSWORD',
  'GET_TEXT',
  'GET_NUMBER',
  'GET_DATE',
  'GET_TABLE',
  'GET_IMAGE',
  'GET_FILE',
  'MOVE',
  'WAIT',
  'RAISE_ERROR',
  'WAIT_UNTIL_EXISTS',
  'WAIT_UNTIL_NOT_EXISTS',
  'WAIT_UNTIL_DISPLAYED',
  'WAIT_UNTIL_NOT_DISPLAYED',
  'WAIT_UNTIL_ENABLED',
  'WAIT_UNTIL_NOT_ENABLED',
  /** Fails the run unless the page shows a text (issue 22: an insertor checks its save landed). */
  'CHECK_TEXT',
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
  'SCRIPT',
  'END',
  'SCROLL_UP',
  'SCROLL_DOWN',
  'SCROLL_TOP',
  'SCROLL_BOTTOM',
  'MOUSE_CLICK',
  'MOUSE_MOVE',
  'GO_BACK',
  'GO_FORWARD',
  'ASK_ID',
  'ASK_PASSWORD',
  'ASK_CODE',
  'ASK_QUESTION',
  'ASK_CAPTCHA',
  'ASK_RECAPTCHA',
  /** The answer to a JavaScript dialog the step before it raised (recorded from the dialog). */
  'ANSWER_DIALOG',
);
export const FENGINE_ACTION_TYPES = values(
  'ASK_F_ENGINE_USER',
  'ASK_F_ENGINE_URL',
  'ASK_F_ENGINE_PASSWORD',
  'ASK_F_ENGINE_INVESTOR',
  'TYPE_F_ENGINE_FIELD',
);
export const ACTION_TYPES = [...EXTRACTOR_ACTION_TYPES, ...FENGINE_ACTION_TYPES] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/**
 * What the insertor builder offers (automation spec §3), plus what real forms need (issue 22,
 * docs/decisions.md): Select option for native lists, the waits, and Check text for the outcome.
 */
export const INSERTOR_ACTION_TYPES: readonly ActionType[] = [
  'NAVIGATE',
  'CLICK',
  'TYPE_TEXT',
  'TYPE_PASSWORD',
  'CLICK_SELECT',
  'WAIT',
  'WAIT_UNTIL_EXISTS',
  'WAIT_UNTIL_NOT_EXISTS',
  'WAIT_UNTIL_DISPLAYED',
  'WAIT_UNTIL_NOT_DISPLAYED',
  'WAIT_UNTIL_ENABLED',
  'WAIT_UNTIL_NOT_ENABLED',
  'CHECK_TEXT',
  'END',
  'SCROLL_UP',
  'SCROLL_DOWN',
  'SCROLL_TOP',
  'SCROLL_BOTTOM',
  'MOUSE_CLICK',
  'ASK_PASSWORD',
  'ASK_CODE',
  'ANSWER_DIALOG',
  ...FENGINE_ACTION_TYPES,
];

/** The JavaScript dialogs a page can open (Playwright's Dialog.type()). */
export const PAGE_DIALOG_TYPES = values('alert', 'confirm', 'prompt', 'beforeunload');
export type PageDialogType = (typeof PAGE_DIALOG_TYPES)[number];

export const SELECTOR_TYPES = values('CSS', 'XPATH');
export type SelectorType = (typeof SELECTOR_TYPES)[number];

export const ACTION_STATUSES = values('NONE', 'CREATING', 'EDITING');
export type ActionStatus = (typeof ACTION_STATUSES)[number];

export const ACTION_VALIDATIONS = values('SUCCESS', 'NOTVALIDATED', 'ERROR');
export type ActionValidation = (typeof ACTION_VALIDATIONS)[number];

export const BUILDER_STATES = values('NONE', 'CREATING', 'EDITING', 'VALIDATING', 'VALIDATING_EDITING');
export type BuilderState = (typeof BUILDER_STATES)[number];

/**
 * The builder states the API keeps with the draft (spec §4 "Validate"): VALIDATING after a
 * successful validation, until the draft changes or is saved; NONE otherwise. CREATING, EDITING and
 * VALIDATING_EDITING live on the screen only (a dialog is open there).
 */
export const KEPT_BUILDER_STATES = values('NONE', 'VALIDATING') satisfies readonly BuilderState[];
export type KeptBuilderState = (typeof KEPT_BUILDER_STATES)[number];

export const CONDITIONS = values(
  'EQUAL',
  'NOT_EQUAL',
  'CONTAINS',
  'NOT_CONTAINS',
  'GREATER_THAN',
  'LESS_THAN',
  'GREATER_EQUAL_THAN',
  'LESS_EQUAL_THAN',
);
export type Condition = (typeof CONDITIONS)[number];

export const SCRIPT_RETURN_TYPES = values('TEXT', 'NUMBER', 'DATETIME', 'VOID', 'TABLE');
export type ScriptReturnType = (typeof SCRIPT_RETURN_TYPES)[number];

export const VALUE_TYPES = values('TEXT', 'NUMBER', 'DATETIME', 'FILE');
export type ValueType = (typeof VALUE_TYPES)[number];

export const ELEMENT_TYPES = values('INPUTABLE_TEXT', 'INPUTABLE_PASSWORD', 'SELECT', 'CLICKABLE', 'OTHER');
export type ElementType = (typeof ELEMENT_TYPES)[number];

export const ASK_MULTI_STEP_PHASES = values('GET_ASK_DATA', 'USER_RESPONSE');
export type AskMultiStepPhase = (typeof ASK_MULTI_STEP_PHASES)[number];

export const DATASET_TYPES = values(
  'CUSTOM',
  'FENGINE_SUB_ACCOUNT',
  'FENGINE_TRANSACTION',
  'FENGINE_FUND',
  'FENGINE_FUND_TRANSACTION',
  'FENGINE_FILE',
);
export type DatasetType = (typeof DATASET_TYPES)[number];

export const QUERY_TYPES = values('CUSTOM', 'FENGINE');
export type QueryType = (typeof QUERY_TYPES)[number];

export const ORDER_TYPES = values('ASCENDING', 'DESCENDING');
export type OrderType = (typeof ORDER_TYPES)[number];

export const SCHEDULE_TYPES = values('MINUTE_INTERVAL', 'DAILY', 'WEEKLY', 'MONTHLY');
export type ScheduleType = (typeof SCHEDULE_TYPES)[number];

export const DAYS_OF_WEEK = values(
  'SUNDAY',
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
);
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];

export const MAPPING_TYPES = values('TEXT', 'CHECKBOX');
export type MappingType = (typeof MAPPING_TYPES)[number];

export const RECOGNITION_JOB_STATUSES = values('QUEUED', 'PROCESSING', 'DONE', 'ERROR');
export type RecognitionJobStatus = (typeof RECOGNITION_JOB_STATUSES)[number];

export const RUN_TRIGGERS = values('MANUAL', 'SCHEDULED', 'VALIDATION');
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export const PENDING_ASK_STATUSES = values('PENDING', 'ANSWERED', 'CANCELED', 'EXPIRED');
export type PendingAskStatus = (typeof PENDING_ASK_STATUSES)[number];

export const RECIPIENT_KINDS = values('TO', 'CC', 'BCC');
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];
