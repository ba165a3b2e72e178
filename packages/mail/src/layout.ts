export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The frame every Pagewright e-mail shares. */
export function layout(
  title: string,
  bodyHtml: string,
  footer = 'You receive this e-mail because of an action on your Pagewright account.',
): string {
  return `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#333">
<h2 style="color:#e65100">Pagewright</h2><h3>${escapeHtml(title)}</h3>${bodyHtml}
<p style="color:#888;font-size:12px">${escapeHtml(footer)}</p>
</body></html>`;
}
