/** The address a component fetched: the SPA's api client passes a string, tests may pass URLs. */
export const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/** The JSON a call sent (null without a body): the SPA's api client sends JSON text. */
export function sentJson(init: RequestInit | undefined): unknown {
  const body = init?.body;
  if (body === undefined || body === null) return null;
  if (typeof body !== 'string') throw new TypeError('the call sent a body that is not JSON text');
  return JSON.parse(body);
}
