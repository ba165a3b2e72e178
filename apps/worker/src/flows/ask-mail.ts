import { escapeHtml, layout, type OutgoingMail } from '@pagewright/mail';

/**
 * The e-mail a scheduled run sends its owner when it reaches an ASK step with no saved answer:
 * nobody is watching, so the owner learns there is a question and opens the dashboard, where the
 * ask dialog opens (the dashboard checks for pending asks every few seconds).
 */
export function scheduledAskMail(options: {
  to: string;
  firstName: string;
  extractorName: string;
  question: string | null;
  dashboardUrl: string;
  waitMinutes: number;
}): OutgoingMail {
  const { to, firstName, extractorName, dashboardUrl, waitMinutes } = options;
  const question = options.question ? ` It asks: "${options.question}".` : '';
  return {
    to,
    subject: `Pagewright: "${extractorName}" is waiting for your answer`,
    text: `Hello ${firstName},\n\nA scheduled run of "${extractorName}" needs an answer from you (a code, a password or a captcha).${question}\n\nOpen your dashboard to answer: ${dashboardUrl}\n\nThe run waits ${waitMinutes} minutes, then stops.`,
    html: layout(
      'A scheduled run is waiting for your answer',
      `<p>Hello ${escapeHtml(firstName)},</p><p>A scheduled run of <b>${escapeHtml(extractorName)}</b> needs an answer from you (a code, a password or a captcha).${escapeHtml(question)}</p>
<p><a href="${escapeHtml(dashboardUrl)}">Open your dashboard to answer</a></p><p>The run waits ${waitMinutes} minutes, then stops.</p>`,
    ),
  };
}
