import * as z from './zod.js';
import { ACTION_LABEL_MAX_LENGTH, TEXT_FIELD_MAX_LENGTH } from '../constants.js';
import { ACTION_TYPES, ACTION_VALIDATIONS, EXTRACTOR_TYPES, KEPT_BUILDER_STATES } from '../enums.js';
import { MESSAGES } from '../messages.js';
import { fserviceDtoSchema, managementDtoSchema } from './fengine.js';
import { extractorInputsSchema, makeInputSchema } from './inputs.js';
import { isOneLine } from '../validation.js';
import {
  dialogAnswerSchema,
  actionOptionsSchema,
  dateMaskSchema,
  elementAtPointSchema,
  elementTargetSchema,
  flowActionSchema,
  numberMaskSchema,
  pageElementAreaSchema,
  pointSchema,
  stepValueSchema,
} from './automation.js';

/**
 * The action builder (automation spec §2 "Action builder", §4 builder states, §7 extractor calls).
 * One open builder per user and extractorType; its calls carry no id (the old product's contract),
 * so the API keeps the caller's current builder (docs/automation-runtime.md "Builder sessions").
 */

export const BUILDER_MESSAGES = {
  noBuilder: 'No builder is open: open the extractor with Edit (or create one) first.',
  lookedAround: 'The page moved; nothing was recorded.',
  sessionLost: 'The live browser of this builder was lost; the page starts again from a blank tab.',
  replaced: 'This builder was closed or opened again meanwhile (another tab?); open it again.',
  lockLost:
    'This validation lost its hold on the builder (its lock lapsed or another request took it) and was stopped; validate again.',
  draftLockLost:
    'This change lost its hold on the builder (its lock lapsed and another request took it) and was not kept; try it again.',
  validationCancelled: 'The validation was stopped: its request closed before it ended.',
  draftUnreadable:
    'The unsaved draft of this builder could not be read after an update and was set aside; open the item again to go on from its saved flow.',
  busy: 'The builder is busy with another request; try again in a moment.',
  noWorker: 'No worker is available to open a browser right now; try again in a moment.',
  actionNotFound: 'There is no action with this sequence.',
  executeFailed: 'The action could not be executed on the page.',
  noElementAtPoint: 'There is no element at this point of the page.',
  maskError: 'Error to apply mask',
  timezonesError: 'Error to get Timezones',
  validating: 'A validation of this builder is already running.',
  saved: 'Saved',
  ended: 'Builder closed',
  sequenceChanged: 'Sequence changed',
  actionDeleted: 'Action removed; validate the extractor again before saving.',
  noImage: 'Image for navigator not available yet.',
  noPageDialog: 'The page is not showing a dialog any more: it was answered, or its step ended.',
} as const;

/** Query of every builder call: which of the caller's builders (extractor, insertor, navigator). */
export const builderQuerySchema = z.object({
  extractorType: z.enum(EXTRACTOR_TYPES).default('EXTRACTOR'),
});
export type BuilderQuery = z.infer<typeof builderQuerySchema>;

/** An AES-GCM sealed value as kept in the builder draft (base64 parts; see @pagewright/db). */
export const sealedSecretJsonSchema = z.object({
  ciphertext: z.string(),
  iv: z.string(),
  authTag: z.string(),
});
export type SealedSecretJson = z.infer<typeof sealedSecretJsonSchema>;

/**
 * One action of the draft the builder edits (kept server-side until PUT /extractor/edit saves it).
 * `step.options.text` never holds a secret: TYPE_PASSWORD's text is `sealedSecret`.
 */
export const draftActionSchema = z.object({
  id: z.string().uuid(),
  /** The action exists in the saved extractor (readOnlyEdit looks at this). */
  isSaved: z.boolean(),
  step: flowActionSchema,
  sealedSecret: sealedSecretJsonSchema.nullable(),
  saveOptionsFlag: z.boolean(),
  pageUrl: z.string().nullable(),
  timestamp: z.string().nullable(),
  validation: z.enum(ACTION_VALIDATIONS),
  errorMessage: z.string().nullable(),
  /** What the step read when it last ran in the builder (IF_CONDITION compares with it). */
  value: stepValueSchema.nullable(),
  /** Screenshots: a key of the draft's image store, or a StoredFile of the saved action. */
  pageScreenshotFileId: z.string().nullable(),
  elementScreenshotFileId: z.string().nullable(),
  hasDraftPageScreenshot: z.boolean(),
  hasDraftElementScreenshot: z.boolean(),
});
export type DraftAction = z.infer<typeof draftActionSchema>;

/** The live browser a builder drives: which worker owns it and the session there. */
export const liveSessionRefSchema = z.object({ workerId: z.string(), sessionId: z.string() });
export type LiveSessionRef = z.infer<typeof liveSessionRefSchema>;

export const builderRecordSchema = z.object({
  extractorId: z.string().uuid(),
  extractorType: z.enum(EXTRACTOR_TYPES),
  actions: z.array(draftActionSchema),
  live: liveSessionRefSchema.nullable(),
  /** Navigators: the run the screen share shows. */
  shareRunId: z.string().uuid().nullable(),
  shareUrl: z.string().nullable(),
  openedAt: z.string(),
  /** VALIDATING from a successful validation until the next change or save (drafts kept before it: NONE). */
  state: z.enum(KEPT_BUILDER_STATES).default('NONE'),
  /** What the recording's F-engine session showed last (its investors, the chosen one's sections). */
  engine: z
    .object({ managementDTO: managementDtoSchema.nullable(), fserviceDTO: fserviceDtoSchema.nullable() })
    .default({ managementDTO: null, fserviceDTO: null }),
  /** The extractor's inputs as the draft declares them (saved with the flow; drafts before them: none). */
  inputs: extractorInputsSchema.default([]),
});
export type BuilderRecord = z.infer<typeof builderRecordSchema>;

/** An action as the builder shows it (automation spec §3 "Action"). Secrets are never returned. */
export const builderActionSchema = z.object({
  id: z.string(),
  sequence: z.number().int(),
  type: z.enum(ACTION_TYPES),
  label: z.string().nullable(),
  selectorType: z.enum(['CSS', 'XPATH']),
  selectorValue: z.string().nullable(),
  xpathValue: z.string().nullable(),
  framePath: z.array(z.string()),
  fallbackLocators: elementTargetSchema.shape.fallbackLocators,
  textValue: z.string().nullable(),
  hasCredentials: z.boolean(),
  saveOptionsFlag: z.boolean(),
  options: actionOptionsSchema,
  pageURL: z.string().nullable(),
  timestamp: z.string().nullable(),
  validation: z.enum(ACTION_VALIDATIONS),
  errorMessage: z.string().nullable(),
  isSaved: z.boolean(),
  hasPageScreenshot: z.boolean(),
  hasElementScreenshot: z.boolean(),
});
export type BuilderAction = z.infer<typeof builderActionSchema>;

export const builderViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  extractorType: z.enum(EXTRACTOR_TYPES),
  viewerEmail: z.string().nullable(),
  actions: z.array(builderActionSchema),
  /** Every action passed the last validation (save needs it). */
  isValidated: z.boolean(),
  /**
   * The builder state (spec §4): VALIDATING after a successful validation until the draft changes
   * or is saved, NONE otherwise; a failed validation leaves NONE. The screen's own states
   * (CREATING, EDITING, VALIDATING_EDITING) are never kept here.
   */
  state: z.enum(KEPT_BUILDER_STATES),
  /** Navigators: the read-only screen-share link for the viewer. */
  screenShareUrl: z.string().nullable(),
  /** The inputs the draft declares (`{{input.name}}` in its texts and URLs). */
  inputs: extractorInputsSchema,
});
export type BuilderView = z.infer<typeof builderViewSchema>;

const actionFields = {
  label: z.string().trim().max(ACTION_LABEL_MAX_LENGTH).optional(),
  target: elementTargetSchema.optional(),
  options: actionOptionsSchema.optional(),
  /** NAVIGATE's URL, TYPE_TEXT's text, RAISE_ERROR's message, WAIT's seconds, an ask's question. */
  textValue: z.string().max(TEXT_FIELD_MAX_LENGTH).optional(),
  /** TYPE_PASSWORD's secret (stored sealed), or the answer an ASK_* step types while recording. */
  credentials: z.string().max(TEXT_FIELD_MAX_LENGTH).optional(),
  saveOptionsFlag: z.boolean().optional(),
  /**
   * "Make this an input" (TYPE_TEXT, NAVIGATE): the text becomes `{{input.name}}` and the input
   * keeps the text as its default; the builder runs the action with the default.
   */
  makeInput: makeInputSchema.optional(),
};

/** POST /extractor/: add an action at `sequence` (default: next ten) and execute it on the page. */
export const addActionRequestSchema = z.object({
  type: z.enum(ACTION_TYPES),
  sequence: z.number().int().optional(),
  ...actionFields,
});
export type AddActionRequest = z.infer<typeof addActionRequestSchema>;
/** What a client sends (defaults such as the target's framePath may be left out). */
export type AddActionInput = z.input<typeof addActionRequestSchema>;

/** POST /extractor/action: change the action at `sequence` (it needs validating again). */
export const changeActionRequestSchema = z.object({
  sequence: z.number().int(),
  ...actionFields,
});
export type ChangeActionRequest = z.infer<typeof changeActionRequestSchema>;

export const addActionResponseSchema = z.object({
  action: builderActionSchema,
  label: z.string().nullable(),
  options: actionOptionsSchema,
  value: stepValueSchema.nullable(),
  /** JPEG of the page after the action, base64. */
  pageScreenshot: z.string().nullable(),
  /** F-engine steps: the chosen investor's sections (ASK_F_ENGINE_INVESTOR), else null. */
  fserviceDTO: fserviceDtoSchema.nullable(),
  /** F-engine steps: the engine's investors once the builder signed in to it, else null. */
  managementDTO: managementDtoSchema.nullable(),
  /** The answers to the dialogs the action raised, recorded as ANSWER_DIALOG actions after it. */
  dialogActions: z.array(builderActionSchema),
});
export type AddActionResponse = z.infer<typeof addActionResponseSchema>;

/** POST /extractor/dialog: the operator's answer to the dialog the live page shows. */
export const answerPageDialogRequestSchema = dialogAnswerSchema;

/** Most pixels one look-around wheel turn moves the live page (a few screens). */
export const LOOK_AROUND_MAX_PIXELS = 5_000;

/**
 * POST /extractor/scroll: the wheel over the page view while an element is being picked moves the
 * live page without recording a step (issue 22: a pager below the fold can be picked; at run time
 * the step's element is scrolled into view as it is acted on).
 */
export const lookAroundRequestSchema = z.object({
  deltaY: z
    .number()
    .int()
    .min(-LOOK_AROUND_MAX_PIXELS)
    .max(LOOK_AROUND_MAX_PIXELS)
    .refine((value) => value !== 0, 'deltaY must not be 0'),
  point: pointSchema,
});
export type LookAroundRequest = z.infer<typeof lookAroundRequestSchema>;

export const sequenceQuerySchema = z.object({
  sequence: z.coerce.number().int(),
  extractorType: z.enum(EXTRACTOR_TYPES).default('EXTRACTOR'),
});

export const changeSequenceQuerySchema = z.object({
  currentSequence: z.coerce.number().int(),
  newSequence: z.coerce.number().int(),
  extractorType: z.enum(EXTRACTOR_TYPES).default('EXTRACTOR'),
});

export const resequenceResponseSchema = z.array(
  z.object({ sequenceBefore: z.number().int(), sequenceAfter: z.number().int() }),
);
export type ResequenceResponse = z.infer<typeof resequenceResponseSchema>;

export const evaluatePointRequestSchema = pointSchema;
export const evaluatePointResponseSchema = elementAtPointSchema.extend({
  /** The spec's element-at-point answer: `selector` and `type`. */
  selector: z.string(),
});
export type EvaluatePointResponse = z.infer<typeof evaluatePointResponseSchema>;

/** How far a replay brought the live page (issue 22: Reload, opening and editing replay). */
export const replayOutcomeSchema = z.object({
  /** The page is in the state after this step (null: no step ran). */
  reachedSequence: z.number().int().nullable(),
  /** The step the replay stopped before: it failed, or it asks the operator. */
  stoppedAt: z.number().int().nullable(),
  message: z.string().nullable(),
});
export type ReplayOutcome = z.infer<typeof replayOutcomeSchema>;

export const normalizedPageSchema = z.object({
  pageURL: z.string(),
  /** JPEG of the page the areas were read from, base64. */
  pageScreenshot: z.string().nullable(),
  areas: z.array(pageElementAreaSchema),
  /** The chosen investor's sections while an F-engine insertor is recorded (else none). */
  fserviceDTO: fserviceDtoSchema,
  /** The engine's investors once the builder signed in to an F-engine (else null). */
  managementDTO: managementDtoSchema.nullable(),
  /** Reload of a builder with steps: how far replaying them brought the page. */
  replay: replayOutcomeSchema.optional(),
});
export type NormalizedPage = z.infer<typeof normalizedPageSchema>;

export const screenshotResponseSchema = z.object({
  sequence: z.number().int(),
  pageScreenshot: z.string().nullable(),
  elementScreenshot: z.string().nullable(),
});
export type ScreenshotResponse = z.infer<typeof screenshotResponseSchema>;

/** GET /extractor/screenshot/all: element screenshots (base64 JPEG) by sequence. */
export const allScreenshotsResponseSchema = z.record(z.string(), z.string().nullable());

export const liveImageResponseSchema = z.object({
  image: z.string(),
  pageURL: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** The live session the picture is of: `frame` events of other sessions are another builder's. */
  sessionId: z.string(),
});
export type LiveImageResponse = z.infer<typeof liveImageResponseSchema>;

/** POST /extractor/number/mask: preview a number mask on the element it reads. */
export const numberMaskPreviewRequestSchema = numberMaskSchema.extend({
  selectorValue: z.string().min(1).max(TEXT_FIELD_MAX_LENGTH),
  xpathValue: z.string().max(TEXT_FIELD_MAX_LENGTH).optional(),
});
/** POST /extractor/dateTime/mask: payload gmt, mask, selectorValue (automation spec §7). */
export const dateMaskPreviewRequestSchema = dateMaskSchema.extend({
  selectorValue: z.string().min(1).max(TEXT_FIELD_MAX_LENGTH),
});
export const maskPreviewResponseSchema = z.object({
  /** The element's text as the page shows it. */
  text: z.string(),
  /** The value the mask reads from it (a number, or an ISO 8601 date-time in UTC). */
  value: z.union([z.number(), z.string()]),
});
export type MaskPreviewResponse = z.infer<typeof maskPreviewResponseSchema>;

export const timezonesResponseSchema = z.array(z.string());

/** GET /extractor/edit/normalized?sequence=: what the page looked like when that action ran. */
export const actionNormalizedResponseSchema = z.object({
  sequence: z.number().int(),
  pageURL: z.string().nullable(),
  pageScreenshot: z.string().nullable(),
  elementScreenshot: z.string().nullable(),
  target: elementTargetSchema.nullable(),
  /** The live page was brought to the state this step found (the steps before it replayed). */
  replay: replayOutcomeSchema,
});

export type ActionNormalized = z.infer<typeof actionNormalizedResponseSchema>;

/** The last line of GET /extractor/validate (after the `progress|type` lines). */
export const validationResultSchema = z.object({
  error: z.string().nullable(),
  code: z.number().int().nullable(),
  data: z.object({
    sequence: z.number().int().nullable(),
    actions: z.array(
      z.object({
        sequence: z.number().int(),
        validation: z.enum(ACTION_VALIDATIONS),
        errorMessage: z.string().nullable(),
      }),
    ),
  }),
});
export type ValidationResult = z.infer<typeof validationResultSchema>;

/** PUT /extractor/edit: save the draft (name and description may change with it). */
export const saveBuilderRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(128).refine(isOneLine, MESSAGES['error.name.line.break']).optional(),
    description: z.string().trim().min(1).max(1024).optional(),
  })
  .default({});
