import { errorResponseSchema } from '@pagewright/shared';

/** The `{message, code, field?}` body documented for each listed status of a route. */
export function errorResponses<const S extends number>(
  ...statuses: S[]
): Record<S, typeof errorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<
    S,
    typeof errorResponseSchema
  >;
}

/** Routes behind a bearer token, as OpenAPI names it. */
export const bearerSecurity = [{ bearerAuth: [] }];

/** Routes of the public API (/api/v1), called with an API key (`Authorization: Bearer pw_…`). */
export const apiKeySecurity = [{ apiKey: [] }];
