import { safeParse, type core } from 'zod/mini';

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

/**
 * The first message per field of a shared contract schema: the contracts carry the spec's exact
 * validation texts, so forms validate with the same schema the API uses.
 */
export function fieldErrorsOf<Field extends string>(
  schema: core.$ZodType,
  value: Record<Field, unknown>,
): FieldErrors<Field> {
  const result = safeParse(schema, value);
  const errors: FieldErrors<Field> = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && field in value && errors[field as Field] === undefined) {
      errors[field as Field] = issue.message;
    }
  }
  return errors;
}

export function hasErrors(errors: Partial<Record<string, string>>): boolean {
  return Object.values(errors).some((message) => message !== undefined);
}
