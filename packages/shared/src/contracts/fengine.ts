import * as z from './zod.js';
import type { DatasetType, ValueType } from '../enums.js';

/**
 * The F-engine connector contract (docs/f-engine-connector.yaml, docs/f-engine.md): what Pagewright
 * asks of a fund-administration engine. An engine is reached at the base URL the operator gives
 * (ASK_F_ENGINE_URL); every path below is relative to it. Every answer an engine gives is parsed
 * with these schemas: an engine is a remote service Pagewright does not control.
 */

export const ENGINE_API_PREFIX = '/api/connector/v1';

export const ENGINE_PATHS = {
  sessions: `${ENGINE_API_PREFIX}/sessions`,
  investors: `${ENGINE_API_PREFIX}/investors`,
  investorSections: (portfolioid: string) =>
    `${ENGINE_API_PREFIX}/investors/${encodeURIComponent(portfolioid)}/sections`,
  imports: (entity: EngineEntity) => `${ENGINE_API_PREFIX}/imports/${entity}`,
} as const;

/** The calls, named as errors name them ("The F-engine's answer to list investors …"). */
export const ENGINE_CALLS = {
  signIn: 'sign in',
  listInvestors: 'list investors',
  investorSections: 'read the investor’s fields',
  importRows: 'import rows',
} as const;
export type EngineCall = (typeof ENGINE_CALLS)[keyof typeof ENGINE_CALLS];

// ---------------------------------------------------------------------------------------------
// Sign in

/** POST /sessions */
export const engineSignInRequestSchema = z.object({
  username: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
});
export type EngineSignInRequest = z.infer<typeof engineSignInRequestSchema>;

export const engineSignInResponseSchema = z.object({
  /** Bearer token for the calls below. */
  token: z.string().min(1).max(4096),
  /** ISO 8601: the token is refused after this. */
  expiresAt: z.string().datetime({ offset: true }),
});
export type EngineSignInResponse = z.infer<typeof engineSignInResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Investors

/** The spec's Investor: portfolioid, name, confirmationNumber. */
export const investorSchema = z.object({
  portfolioid: z.string().min(1).max(200),
  name: z.string().max(500),
  confirmationNumber: z.string().max(200).nullable(),
});
export type Investor = z.infer<typeof investorSchema>;

/** GET /investors?page=&pageSize=&search= (pages count from 1). */
export const ENGINE_INVESTORS_PAGE_SIZE_MAX = 100;
/** Most investors Pagewright reads for one ask dialog (it pages through the engine's list). */
export const ENGINE_INVESTORS_MAX = 2_000;

export const engineInvestorsPageSchema = z.object({
  items: z.array(investorSchema),
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1).max(ENGINE_INVESTORS_PAGE_SIZE_MAX),
  total: z.number().int().min(0),
});
export type EngineInvestorsPage = z.infer<typeof engineInvestorsPageSchema>;

// ---------------------------------------------------------------------------------------------
// An investor's sections of fields (fserviceDTO.sections)

export const ENGINE_FIELD_TYPES = ['TEXT', 'NUMBER', 'DATE', 'BOOLEAN', 'CHOICE'] as const;
export type EngineFieldType = (typeof ENGINE_FIELD_TYPES)[number];

const engineKey = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'a key is a letter followed by letters, digits, _ or -');

export const engineFieldSchema = z.object({
  key: engineKey,
  label: z.string().max(300),
  /** DATE: YYYY-MM-DD; BOOLEAN: "true"/"false"; CHOICE: one of `options`; null: not known. */
  value: z.string().max(10_000).nullable(),
  type: z.enum(ENGINE_FIELD_TYPES),
  /** CHOICE: the values the engine allows. */
  options: z.array(z.string().max(300)).max(500).optional(),
});
export type EngineField = z.infer<typeof engineFieldSchema>;

export const engineSectionSchema = z.object({
  key: engineKey,
  name: z.string().max(300),
  fields: z.array(engineFieldSchema).max(500),
});
export type EngineSection = z.infer<typeof engineSectionSchema>;

/** GET /investors/{portfolioid}/sections */
export const engineInvestorSectionsSchema = z.object({
  portfolioid: z.string().min(1).max(200),
  sections: z.array(engineSectionSchema).max(100),
});
export type EngineInvestorSections = z.infer<typeof engineInvestorSectionsSchema>;

/** TYPE_F_ENGINE_FIELD's textValue: "<section key>.<field key>". */
export function engineFieldPath(sectionKey: string, fieldKey: string): string {
  return `${sectionKey}.${fieldKey}`;
}

export function findEngineField(
  sections: readonly EngineSection[],
  path: string,
): { section: EngineSection; field: EngineField } | undefined {
  const dot = path.indexOf('.');
  if (dot <= 0) return undefined;
  const section = sections.find((candidate) => candidate.key === path.slice(0, dot));
  const field = section?.fields.find((candidate) => candidate.key === path.slice(dot + 1));
  return section && field ? { section, field } : undefined;
}

// ---------------------------------------------------------------------------------------------
// Imports: rows of the engine dataset types

export const ENGINE_ENTITIES = [
  'sub-accounts',
  'transactions',
  'funds',
  'fund-transactions',
  'files',
] as const;
export type EngineEntity = (typeof ENGINE_ENTITIES)[number];

export type EngineDatasetType = Exclude<DatasetType, 'CUSTOM'>;

export interface EngineEntityField {
  /** The field's name in the dataset and its property in an import row. */
  name: string;
  type: ValueType;
  /** Part of the row's key in the dataset (rows with equal keys are one row). */
  isKey: boolean;
  /** The engine refuses a row without it. */
  isRequired: boolean;
}

const field = (name: string, type: ValueType, flags: { key?: boolean; required?: boolean } = {}) => ({
  name,
  type,
  isKey: flags.key ?? false,
  isRequired: flags.required ?? flags.key ?? false,
});

/**
 * The fixed fields of each engine dataset type: an extractor maps onto them as onto a custom
 * dataset's fields, and each row is imported into the engine with these properties.
 */
export const ENGINE_DATASET_ENTITIES: Readonly<
  Record<EngineDatasetType, { entity: EngineEntity; fields: readonly EngineEntityField[] }>
> = {
  FENGINE_SUB_ACCOUNT: {
    entity: 'sub-accounts',
    fields: [
      field('portfolioId', 'TEXT', { key: true }),
      field('subAccountNumber', 'TEXT', { key: true }),
      field('name', 'TEXT', { required: true }),
      field('currency', 'TEXT'),
      field('openedOn', 'DATETIME'),
      field('balance', 'NUMBER'),
    ],
  },
  FENGINE_TRANSACTION: {
    entity: 'transactions',
    fields: [
      field('transactionId', 'TEXT', { key: true }),
      field('portfolioId', 'TEXT', { required: true }),
      field('tradeDate', 'DATETIME', { required: true }),
      field('type', 'TEXT', { required: true }),
      field('amount', 'NUMBER', { required: true }),
      field('currency', 'TEXT'),
      field('description', 'TEXT'),
    ],
  },
  FENGINE_FUND: {
    entity: 'funds',
    fields: [
      field('fundCode', 'TEXT', { key: true }),
      field('name', 'TEXT', { required: true }),
      field('currency', 'TEXT'),
      field('nav', 'NUMBER'),
      field('navDate', 'DATETIME'),
    ],
  },
  FENGINE_FUND_TRANSACTION: {
    entity: 'fund-transactions',
    fields: [
      field('transactionId', 'TEXT', { key: true }),
      field('portfolioId', 'TEXT', { required: true }),
      field('fundCode', 'TEXT', { required: true }),
      field('tradeDate', 'DATETIME', { required: true }),
      field('units', 'NUMBER'),
      field('price', 'NUMBER'),
      field('amount', 'NUMBER', { required: true }),
      field('currency', 'TEXT'),
    ],
  },
  FENGINE_FILE: {
    entity: 'files',
    fields: [
      field('documentId', 'TEXT', { key: true }),
      field('portfolioId', 'TEXT', { required: true }),
      field('documentType', 'TEXT', { required: true }),
      field('file', 'FILE', { required: true }),
      field('description', 'TEXT'),
    ],
  },
};

export function isEngineDatasetType(type: DatasetType): type is EngineDatasetType {
  return type !== 'CUSTOM';
}

/** Most rows in one import call; larger fills are sent in several. */
export const ENGINE_IMPORT_BATCH_MAX = 500;

/**
 * One row to import. `externalId` is Pagewright's id of the row (dataset id and row id): an engine
 * upserts by it, so a retried import never doubles a row. A FILE value travels as
 * `{ fileName, mimeType, contentBase64 }`.
 */
export const engineFileValueSchema = z.object({
  fileName: z.string().min(1).max(255),
  mimeType: z.string().min(1).max(255),
  contentBase64: z.string(),
});
export const engineImportRowSchema = z.object({
  externalId: z.string().min(1).max(200),
  values: z.record(z.string(), z.union([z.string(), z.number(), engineFileValueSchema, z.null()])),
});
export type EngineImportRow = z.infer<typeof engineImportRowSchema>;

/** POST /imports/{entity} */
export const engineImportRequestSchema = z.object({
  rows: z.array(engineImportRowSchema).min(1).max(ENGINE_IMPORT_BATCH_MAX),
});
export type EngineImportRequest = z.infer<typeof engineImportRequestSchema>;

export const engineImportResponseSchema = z.object({
  created: z.number().int().min(0),
  updated: z.number().int().min(0),
  /** Rows the engine refused, with why (the others were kept). */
  rejected: z.array(z.object({ externalId: z.string(), reason: z.string().max(1000) })),
});
export type EngineImportResponse = z.infer<typeof engineImportResponseSchema>;

/** Every error answer of an engine: { error: sentence }. */
export const engineErrorBodySchema = z.object({ error: z.string().max(1000) });

// ---------------------------------------------------------------------------------------------
// What the builder and the ask dialog carry (spec: managementDTO, fserviceDTO)

export const managementDtoSchema = z.object({ investors: z.array(investorSchema) });
export type ManagementDto = z.infer<typeof managementDtoSchema>;

export const fserviceDtoSchema = z.object({
  /** The chosen investor, when one was chosen. */
  investor: investorSchema.nullable().optional(),
  sections: z.array(engineSectionSchema),
});
export type FserviceDto = z.infer<typeof fserviceDtoSchema>;

// ---------------------------------------------------------------------------------------------
// What the operator reads when an engine call goes wrong (one sentence each, naming the call)

export const ENGINE_MESSAGES = {
  signInRequired: 'You must sign in to use this action',
  noInvestorChosen: 'No investor was chosen: add an "Ask F-engine investor" step before this one',
  badUrl: (url: string) => `The F-engine address "${url}" is not a valid http(s) URL`,
  refused: (url: string, reason: string) => `The F-engine address ${url} is refused: ${reason}`,
  unreachable: (origin: string, call: string, cause: string) =>
    `The F-engine at ${origin} could not be reached to ${call}: ${cause}`,
  timeout: (origin: string, call: string, seconds: number) =>
    `The F-engine at ${origin} did not answer "${call}" within ${seconds} s`,
  badCredentials: (origin: string) => `The F-engine at ${origin} refused the user name or password`,
  sessionRefused: (origin: string, call: string) =>
    `The F-engine at ${origin} refused its session to ${call}; sign in again`,
  httpError: (origin: string, call: string, status: number, detail: string) =>
    `The F-engine at ${origin} answered "${call}" with HTTP ${status}${detail ? `: ${detail}` : ''}`,
  malformed: (origin: string, call: string, detail: string) =>
    `The F-engine at ${origin} gave an answer to "${call}" that is not what the connector contract says (${detail}): is this the address of an F-engine?`,
  investorUnknown: (portfolioid: string) => `The F-engine has no investor "${portfolioid}"`,
  investorNotOffered: 'Choose one of the investors the F-engine listed',
  fieldMissing: (investor: string, field: string) =>
    `The investor ${investor} has no field "${field}" in the F-engine: choose another field or another investor`,
  fieldEmpty: (investor: string, field: string) =>
    `The investor ${investor} has no value for "${field}" in the F-engine`,
  noFieldChosen: 'Choose the investor field this step types',
  notConfigured:
    'No F-engine is configured for imports: set FENGINE_URL, FENGINE_USER and FENGINE_PASSWORD (docs/f-engine.md)',
} as const;
