import { z } from 'zod';
import {
  ACTION_LABEL_MAX_LENGTH,
  actionOptionsSchema,
  dateMaskSchema,
  fallbackLocatorSchema,
  numberMaskSchema,
  tableDefinitionSchema,
  type ActionOptions,
  type ElementTarget,
  type FlowAction,
  type TableColumn,
  type TableDefinition,
} from '@pagewright/shared';
import type { Prisma } from './generated/client.js';
import { actionSecretContext, type SealedSecret, type SecretBox } from './secret-box.js';

/** What is read of each action to run or edit it: the row and the GetTable / NumberMask / DateMask relations. */
export const flowActionInclude = {
  getTable: { include: { columns: { orderBy: { sequence: 'asc' } } } },
  numberMask: true,
  dateMask: true,
} as const satisfies Prisma.ExtractorActionInclude;

export type StoredAction = Prisma.ExtractorActionGetPayload<{ include: typeof flowActionInclude }>;

/**
 * The options JSON as stored: with a GetTable row, `table` only carries what that row has no column
 * for (the next-page selector and page count).
 */
const storedOptionsSchema = actionOptionsSchema.extend({ table: tableDefinitionSchema.partial().optional() });

const framePathSchema = z.array(z.string());
const fallbackLocatorsSchema = z.array(fallbackLocatorSchema);
/** A table column's options JSON: its masks, under either the column or the action field names. */
const columnOptionsSchema = z
  .object({
    numberMask: numberMaskSchema.optional(),
    dateMask: dateMaskSchema.optional(),
    numberFormat: numberMaskSchema.optional(),
    datetimeFormat: dateMaskSchema.optional(),
  })
  .partial();

/** A stored action the engine cannot run as it is (bad JSON, a secret that does not open). */
export class InvalidStoredActionError extends Error {
  constructor(
    message: string,
    readonly sequence: number,
  ) {
    super(message);
    this.name = 'InvalidStoredActionError';
  }
}

function invalid(row: StoredAction, what: string): InvalidStoredActionError {
  return new InvalidStoredActionError(
    `The ${row.type} action at sequence ${row.sequence} has an invalid ${what}`,
    row.sequence,
  );
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, row: StoredAction, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw invalid(row, what);
  return result.data;
}

function targetOf(row: StoredAction): ElementTarget | undefined {
  if (!row.selectorValue && !row.xpathValue) return undefined;
  return {
    selectorType: row.selectorType,
    selectorValue: row.selectorValue ?? '',
    ...(row.xpathValue ? { xpathValue: row.xpathValue } : {}),
    framePath: parsed(framePathSchema, row.framePath ?? [], row, 'frame path'),
    fallbackLocators: parsed(
      fallbackLocatorsSchema,
      row.fallbackLocators ?? [],
      row,
      'fallback locator list',
    ),
  };
}

function tableOf(
  row: StoredAction,
  recorded: Partial<TableDefinition> | undefined,
): TableDefinition | undefined {
  const table = row.getTable;
  if (!table) return recorded && parsed(tableDefinitionSchema, recorded, row, 'table definition');
  const columns: TableColumn[] = table.columns.map((column) => {
    const options = parsed(
      columnOptionsSchema,
      column.options ?? {},
      row,
      `options of column ${column.label}`,
    );
    const numberMask = options.numberMask ?? options.numberFormat;
    const dateMask = options.dateMask ?? options.datetimeFormat;
    return {
      label: column.label,
      selector: column.selector,
      type: column.type,
      ...(numberMask ? { numberMask } : {}),
      ...(dateMask ? { dateMask } : {}),
    };
  });
  // Paging (next-page selector, page count) has no column of its own: it stays in options.table.
  return {
    maxPages: recorded?.maxPages ?? 1,
    ...(recorded?.nextPageSelector ? { nextPageSelector: recorded.nextPageSelector } : {}),
    name: table.name,
    tableSelector: table.tableSelector,
    rowSelector: table.rowSelector,
    columns,
  };
}

/**
 * One stored action as the engine runs it. The columns the spec spreads over the row (textValue,
 * the if* fields, the mask and table relations, the sealed secret) are folded into `options`.
 */
export function toFlowAction(row: StoredAction, userId: string, secrets: SecretBox | undefined): FlowAction {
  const { table: recordedTable, ...recorded } = parsed(
    storedOptionsSchema,
    row.options ?? {},
    row,
    'options',
  );
  const options: ActionOptions = { ...recorded };
  if (row.textValue !== null) options.text = row.textValue;
  if (row.secretCiphertext && row.secretIv && row.secretAuthTag) {
    if (!secrets) throw invalid(row, 'secret (the worker has no ENCRYPTION_KEY)');
    try {
      options.text = secrets.open(
        {
          ciphertext: Buffer.from(row.secretCiphertext),
          iv: Buffer.from(row.secretIv),
          authTag: Buffer.from(row.secretAuthTag),
        },
        actionSecretContext(userId, row.id),
      );
    } catch {
      throw invalid(row, 'secret (it does not open with this ENCRYPTION_KEY)');
    }
  }
  if (row.ifCondition && row.ifSequenceSource !== null) {
    options.condition = {
      sequenceSource: row.ifSequenceSource,
      condition: row.ifCondition,
      value: row.ifValue ?? '',
    };
  }
  if (row.ifSequenceDestination !== null) options.sequenceDestination = row.ifSequenceDestination;
  if (row.numberMask) {
    const mask = row.numberMask;
    options.numberFormat = numberMaskSchema.parse({
      beforePositive: mask.beforePositive ?? undefined,
      afterPositive: mask.afterPositive ?? undefined,
      beforeNegative: mask.beforeNegative ?? undefined,
      afterNegative: mask.afterNegative ?? undefined,
      decimalSeparator: mask.decimalSeparator,
      groupSeparator: mask.groupSeparator,
    });
  }
  if (row.dateMask) options.datetimeFormat = { mask: row.dateMask.mask, gmt: row.dateMask.timezone };
  const table = tableOf(row, recordedTable);
  if (table) options.table = table;

  const target = targetOf(row);
  return {
    sequence: row.sequence,
    type: row.type,
    ...(row.label ? { label: row.label.slice(0, ACTION_LABEL_MAX_LENGTH) } : {}),
    ...(target ? { target } : {}),
    options,
  };
}

/** What the builder keeps with an action besides the step the engine runs. */
export interface ActionRowExtras {
  id: string;
  /** The typed secret (TYPE_PASSWORD), already sealed for this user and action id. */
  sealedSecret?: SealedSecret | null | undefined;
  saveOptionsFlag?: boolean | undefined;
  pageUrl?: string | null | undefined;
  isValidated: boolean;
  validationError?: string | null | undefined;
  pageScreenshotFileId?: string | null | undefined;
  elementScreenshotFileId?: string | null | undefined;
}

/** One action split into the rows that store it: the action row and its relations. */
export interface ActionRowParts {
  action: Omit<Prisma.ExtractorActionUncheckedCreateInput, 'extractorId'> & { id: string };
  numberMask: Omit<Prisma.NumberMaskUncheckedCreateInput, 'actionId'> | null;
  dateMask: Omit<Prisma.DateMaskUncheckedCreateInput, 'actionId'> | null;
  table: {
    name: string;
    tableSelector: string;
    rowSelector: string;
    columns: Omit<Prisma.GetTableColumnUncheckedCreateInput, 'tableId'>[];
  } | null;
}

/**
 * The inverse of toFlowAction: one flow step as the row and the NumberMask / DateMask / GetTable
 * rows that store it. A secret never goes to `textValue`; it is stored sealed.
 */
export function toActionRowParts(action: FlowAction, extras: ActionRowExtras): ActionRowParts {
  const { text, condition, sequenceDestination, numberFormat, datetimeFormat, table, ...rest } =
    action.options;
  const target = action.target;
  const secret = extras.sealedSecret ?? undefined;
  const storedOptions: Record<string, unknown> = { ...rest };
  if (table && (table.nextPageSelector || table.maxPages !== 1)) {
    storedOptions.table = {
      ...(table.nextPageSelector ? { nextPageSelector: table.nextPageSelector } : {}),
      maxPages: table.maxPages,
    };
  }
  return {
    action: {
      id: extras.id,
      sequence: action.sequence,
      type: action.type,
      label: action.label ?? null,
      selectorType: target?.selectorType ?? 'CSS',
      selectorValue: target?.selectorValue || null,
      xpathValue: target?.xpathValue ?? null,
      framePath: target?.framePath ?? [],
      fallbackLocators: target?.fallbackLocators ?? [],
      pageUrl: extras.pageUrl ?? null,
      textValue: secret ? null : (text ?? null),
      secretCiphertext: secret ? new Uint8Array(secret.ciphertext) : null,
      secretIv: secret ? new Uint8Array(secret.iv) : null,
      secretAuthTag: secret ? new Uint8Array(secret.authTag) : null,
      saveOptionsFlag: extras.saveOptionsFlag ?? false,
      options: storedOptions as Prisma.InputJsonObject,
      ifValue: condition?.value ?? null,
      ifSequenceSource: condition?.sequenceSource ?? null,
      ifCondition: condition?.condition ?? null,
      ifSequenceDestination: sequenceDestination ?? null,
      isValidated: extras.isValidated,
      validationError: extras.validationError ?? null,
      pageScreenshotFileId: extras.pageScreenshotFileId ?? null,
      elementScreenshotFileId: extras.elementScreenshotFileId ?? null,
    },
    numberMask: numberFormat
      ? {
          beforePositive: numberFormat.beforePositive || null,
          afterPositive: numberFormat.afterPositive || null,
          beforeNegative: numberFormat.beforeNegative || null,
          afterNegative: numberFormat.afterNegative || null,
          decimalSeparator: numberFormat.decimalSeparator,
          groupSeparator: numberFormat.groupSeparator,
          selectorValue: target?.selectorValue ?? null,
          xpathValue: target?.xpathValue ?? null,
        }
      : null,
    dateMask: datetimeFormat
      ? {
          mask: datetimeFormat.mask,
          timezone: datetimeFormat.gmt,
          selectorValue: target?.selectorValue ?? null,
        }
      : null,
    table: table
      ? {
          name: table.name,
          tableSelector: table.tableSelector,
          rowSelector: table.rowSelector,
          columns: table.columns.map((column, index) => ({
            sequence: index,
            label: column.label,
            selector: column.selector,
            type: column.type,
            options: {
              ...(column.numberMask ? { numberMask: column.numberMask } : {}),
              ...(column.dateMask ? { dateMask: column.dateMask } : {}),
            },
          })),
        }
      : null,
  };
}
