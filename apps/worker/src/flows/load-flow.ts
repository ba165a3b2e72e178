import { z } from 'zod';
import { AUTOMATION_CODES, AutomationError } from '@pagewright/automation';
import { actionSecretContext, type Prisma, type SecretBox } from '@pagewright/db';
import {
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

/** What the worker reads of each action: the row and the GetTable / NumberMask / DateMask relations. */
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

function invalid(row: StoredAction, what: string): AutomationError {
  return new AutomationError(
    AUTOMATION_CODES.INVALID_ARGUMENT,
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
    ...(row.label ? { label: row.label.slice(0, 128) } : {}),
    ...(target ? { target } : {}),
    options,
  };
}
