import { escapeHtml, layout, type OutgoingMail } from '@pagewright/mail';

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
