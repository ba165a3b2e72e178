import type { ExtractorType } from '@pagewright/shared';

/**
 * Every builder call but GET /extractor/edit/:id names which of the caller's builders it acts on
 * (one per extractorType, docs/automation-runtime.md "Builder sessions").
 */
export function builderPath(
  path: string,
  extractorType: ExtractorType,
  query: Record<string, string | number> = {},
): string {
  const search = new URLSearchParams({ extractorType });
  for (const [name, value] of Object.entries(query)) search.set(name, String(value));
  return `${path}?${search.toString()}`;
}
