/**
 * CSV as RFC 4180 writes it: fields separated by commas, lines ended by CRLF, a field quoted (its
 * quotes doubled) when it holds a comma, a quote or a line break. Empty cells are empty fields.
 */
export function csvLine(fields: readonly (string | number | null)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/u.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
