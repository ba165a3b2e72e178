import type {
  DialogAnswer,
  EngineSection,
  Investor,
  ElementLocatedBy,
  FlowAction,
  PageDialog,
  PageDialogAnswer,
  PageElementArea,
  StepValue,
} from '@pagewright/shared';
import type { AutomationError } from './automation-error.js';

/** What the engine asks the operator during a run (ASK_* actions). */
export interface AskRequest {
  action: FlowAction;
  sequence: number;
  type: FlowAction['type'];
  label?: string | undefined;
  /** The question text recorded with the action (options.text). */
  question?: string | undefined;
  /** PNG of what the operator is asked about: the question area of a multi-step ask, else the target. */
  elementScreenshot?: Buffer | undefined;
  /** Multi-step asks: the selector of the question/captcha area elementScreenshot shows. */
  askDataContentSelector?: string | undefined;
  /** ASK_RECAPTCHA: the areas the operator may click, in elementScreenshot's pixels. */
  areas?: PageElementArea[] | undefined;
  /** ASK_RECAPTCHA: 0 for the first picture, then one more after each clicked area. */
  round?: number | undefined;
  /** ASK_F_ENGINE_INVESTOR: the engine's investors to choose from (the answer is a portfolioid). */
  investors?: Investor[] | undefined;
}

/** Which sign-in value an F-engine sign-in ask gives. */
export type EngineSignInPart = 'url' | 'user' | 'password';

/**
 * The F-engine of one run or live builder session (docs/f-engine.md), kept by the worker: the
 * engine steps read and change it. Every method throws an Error whose message is one sentence for
 * the operator (an engine that answers HTML, a refused address, a missing field…).
 */
export interface EngineHooks {
  /** ASK_F_ENGINE_URL/USER/PASSWORD: keeps the answer; signs in once all three are known. */
  setSignIn(part: EngineSignInPart, value: string): Promise<void>;
  /** The engine's investors; throws 'You must sign in to use this action' before a sign-in. */
  investors(): Promise<Investor[]>;
  /** ASK_F_ENGINE_INVESTOR's answer: reads that investor's sections of fields. */
  chooseInvestor(portfolioid: string): Promise<{ investor: Investor; sections: EngineSection[] }>;
  /** The investor chosen by the last ASK_F_ENGINE_INVESTOR, with its sections. */
  chosen(): { investor: Investor; sections: EngineSection[] } | undefined;
}

/** A file a step obtained (GET_FILE, GET_IMAGE, FILE table columns). */
export interface KeptFile {
  fileName: string;
  mimeType: string;
  content: Buffer;
  /** GET_TABLE: the FILE cell it came from (zero-based row of the value, column of the definition). */
  cell?: { row: number; column: number } | undefined;
}

export interface StepRecord {
  sequence: number;
  type: FlowAction['type'];
  status: 'SUCCESS' | 'SKIPPED' | 'ERROR';
  pageUrl: string;
  /** ISO 8601 time the step started. */
  timestamp: string;
  /** What the step produced; never a typed password or an asked secret. */
  value: StepValue;
  elementBox?: { x: number; y: number; width: number; height: number } | undefined;
  /** JPEG of the element the step acted on, when it could be captured within the size cap. */
  elementScreenshot?: Buffer | undefined;
  /** JPEG (quality 70) of the viewport after the step, when page screenshots are on. */
  pageScreenshot?: Buffer | undefined;
  /** The page's HTML after the step, scripts and styles removed (NORMALIZED_HTML_MAX_BYTES cap). */
  normalizedHtml?: string | undefined;
  durationMs: number;
  error?: AutomationError | undefined;
  /** A fallback found the step's element: which, and the selector the element has now. */
  locatedBy?: ElementLocatedBy | undefined;
  /** Dialogs the step raised that the operator answered (recording), in the order they opened. */
  dialogs?: PageDialogAnswer[] | undefined;
}

export interface FlowHooks {
  /** Answers an ASK_* action; the answer 'CANCELED' stops the flow with STOPPED. */
  ask(request: AskRequest): Promise<string>;
  onStepStart?(action: FlowAction, index: number, total: number): void;
  onStepDone?(step: StepRecord): void;
  keepFile?(file: KeptFile): Promise<void>;
  /**
   * Recording only: the operator answers a dialog no recorded step answers (undefined: nobody
   * did, and the step fails with the dialog's text). Without it such a dialog fails its step.
   */
  onDialog?(dialog: PageDialog): Promise<DialogAnswer | undefined>;
  /** Aborting stops the flow between steps with STOPPED. */
  signal?: AbortSignal;
  /** The F-engine steps' engine; without it they fail with 'You must sign in to use this action'. */
  engine?: EngineHooks;
}

export type FlowStatus = 'SUCCESS' | 'ERROR' | 'STOPPED';

export interface FlowResult {
  status: FlowStatus;
  steps: StepRecord[];
  /** The value of every step that ran, by sequence. */
  values: Record<number, StepValue>;
  error?: AutomationError | undefined;
}

/** Bounds of a run; every field has a default (see DEFAULT_LIMITS). */
export interface ActionLimits {
  /** How long element actions wait for their element (ms). */
  elementTimeoutMs: number;
  /** NAVIGATE, GO_BACK, GO_FORWARD (ms). */
  navigationTimeoutMs: number;
  /** WAIT_UNTIL_* when the action has no options.timeoutMs (ms). */
  waitUntilTimeoutMs: number;
  /** CLICK_IF_* and IF_* when the action has no options.timeoutMs (ms). */
  conditionalTimeoutMs: number;
  /** SCRIPT (ms). */
  scriptTimeoutMs: number;
  /** GET_FILE and FILE table cells (bytes). */
  fileMaxBytes: number;
  /** Element screenshots larger than this are not kept (bytes). */
  elementScreenshotMaxBytes: number;
  /**
   * A step whose value (as JSON) is larger fails: values travel through Redis to the builder and
   * are stored with every run step (bytes; the worker's STEP_VALUE_MAX_BYTES).
   */
  stepValueMaxBytes: number;
}

export const DEFAULT_LIMITS: ActionLimits = {
  elementTimeoutMs: 10_000,
  navigationTimeoutMs: 30_000,
  waitUntilTimeoutMs: 30_000,
  conditionalTimeoutMs: 3_000,
  scriptTimeoutMs: 10_000,
  fileMaxBytes: 25 * 1024 * 1024,
  elementScreenshotMaxBytes: 512 * 1024,
  stepValueMaxBytes: 1024 * 1024,
};
