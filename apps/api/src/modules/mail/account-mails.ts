import type { OutgoingMail } from './mailer.js';

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

export function confirmationMail(to: string, firstName: string, link: string): OutgoingMail {
  return {
    to,
    subject: 'Confirm your Pagewright sign up',
    text: `Hello ${firstName},\n\nPlease confirm your sign up by opening this link:\n${link}\n\nIf you did not sign up, ignore this e-mail.`,
    html: layout(
      'Confirm your sign up',
      `<p>Hello ${escapeHtml(firstName)},</p><p>Please confirm your sign up by clicking the link below:</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>If you did not sign up, ignore this e-mail.</p>`,
    ),
  };
}

export function temporaryPasswordMail(
  to: string,
  firstName: string,
  temporaryPassword: string,
  validHours: number,
): OutgoingMail {
  return {
    to,
    subject: 'Your Pagewright temporary password',
    text: `Hello ${firstName},\n\nYour temporary password is: ${temporaryPassword}\n\nIt is valid for ${validHours} hours. Sign in with it and you will be asked to choose a new password. Your current password keeps working until then.`,
    html: layout(
      'Your temporary password',
      `<p>Hello ${escapeHtml(firstName)},</p><p>Your temporary password is: <b><code>${escapeHtml(temporaryPassword)}</code></b></p>
<p>It is valid for ${validHours} hours. Sign in with it and you will be asked to choose a new password. Your current password keeps working until then.</p>`,
    ),
  };
}
