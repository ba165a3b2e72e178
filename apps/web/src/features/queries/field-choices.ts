import {
  selectQueryFieldsRequestSchema,
  type OrderType,
  type QueryDatasetField,
  type QueryFieldDto,
  type SelectQueryFieldsRequest,
} from '@pagewright/shared';

/** Step 2's choice for one dataset field. */
export interface FieldChoice {
  isShown: boolean;
  orderType: OrderType | null;
  orderSequence: number | null;
}

/**
 * The choices as the draft holds them. A query with no field chosen yet starts with every field
 * shown (most queries want most columns; unticking is one click each).
 */
export function fieldChoicesOf(
  fields: readonly QueryDatasetField[],
  chosen: readonly QueryFieldDto[],
): Map<string, FieldChoice> {
  const byId = new Map(chosen.map((field) => [field.datasetFieldId, field]));
  return new Map(
    fields.map((field) => {
      const picked = byId.get(field.datasetFieldId);
      return [
        field.datasetFieldId,
        {
          isShown: chosen.length === 0 || picked !== undefined,
          orderType: picked?.orderType ?? null,
          orderSequence: picked?.orderSequence ?? null,
        },
      ];
    }),
  );
}

/**
 * The request of step 2 → Next: the shown fields in the draft's column order (then the dataset's),
 * and the rules of the API's schema — at least one field ('Choose at least one field to go on'), each
 * order sequence once. A sequence without an order type sorts ascending.
 */
export function fieldSelectionOf(
  fields: readonly QueryDatasetField[],
  choices: ReadonlyMap<string, FieldChoice>,
  columnOrder: readonly QueryFieldDto[],
): { request: SelectQueryFieldsRequest; notice: string | null; errors: Map<string, string> } {
  const place = new Map(columnOrder.map((field, index) => [field.datasetFieldId, index]));
  const shown = fields
    .filter((field) => choices.get(field.datasetFieldId)?.isShown)
    .map((field, index) => ({ field, rank: place.get(field.datasetFieldId) ?? columnOrder.length + index }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ field }) => field);
  const request: SelectQueryFieldsRequest = {
    fields: shown.map((field) => {
      const choice = choices.get(field.datasetFieldId);
      const orderSequence = choice?.orderSequence ?? null;
      return {
        datasetFieldId: field.datasetFieldId,
        orderType: choice?.orderType ?? (orderSequence === null ? null : 'ASCENDING'),
        orderSequence,
      };
    }),
  };
  const errors = new Map<string, string>();
  let notice: string | null = null;
  const result = selectQueryFieldsRequestSchema.safeParse(request);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const [, index] = issue.path;
      const field = typeof index === 'number' ? shown[index] : undefined;
      if (field) errors.set(field.datasetFieldId, issue.message);
      else notice ??= issue.message;
    }
  }
  return { request, notice, errors };
}
