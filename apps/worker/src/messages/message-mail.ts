import { escapeHtml, layout, type OutgoingMail } from '@pagewright/mail';
import { splitRecipients } from '@pagewright/shared';

/** What one recipient's e-mail of a message shows. */
export interface MessageMailContent {
  /** The one address this copy goes to. */
  recipient: string;
  fromAddress: string;
  toLine: string;
  ccLine: string;
  subject: string;
  body: string;
  attachmentNames: string[];
  /** PUBLIC_URL/message/token/<token>: this recipient's own link. */
  link: string;
  linkExpiresAt: Date;
}

const dateText = (date: Date) => date.toUTCString().replace(/ GMT$/u, ' UTC');

/**
 * One recipient's copy of a message: the headers show the message's To and Cc lines (never Bcc),
 * the body and the names of its files, and the recipient's own link, which opens the thread and
 * its files without an account and lets them reply.
 */
export function messageMail(content: MessageMailContent): OutgoingMail {
  const { fromAddress, subject, body, attachmentNames, link } = content;
  const until = dateText(content.linkExpiresAt);
  const files = attachmentNames.length > 0 ? attachmentNames.join(', ') : null;
  const text = [
    `${fromAddress} sent you a message on Pagewright.`,
    '',
    `Subject: ${subject}`,
    '',
    body,
    '',
    ...(files ? [`Attached files (open the message to download them): ${files}`, ''] : []),
    `Open the message, its files and Reply All: ${link}`,
    `This link is yours alone; it opens this conversation until ${until}.`,
  ].join('\n');
  const html = layout(
    subject,
    `<p><b>${escapeHtml(fromAddress)}</b> sent you a message on Pagewright.</p>
<div style="white-space:pre-wrap;border-left:3px solid #ccc;padding-left:12px">${escapeHtml(body)}</div>
${files ? `<p>Attached files (open the message to download them): ${escapeHtml(files)}</p>` : ''}
<p><a href="${escapeHtml(link)}">Open the message and reply</a></p>
<p style="color:#666;font-size:12px">This link is yours alone; it opens this conversation until ${escapeHtml(until)}.</p>`,
    'You receive this e-mail because someone wrote to you on Pagewright.',
  );
  return {
    to: splitRecipients(content.toLine).join(', '),
    cc: splitRecipients(content.ccLine).join(', ') || undefined,
    envelopeTo: content.recipient,
    fromName: `${fromAddress} via Pagewright`,
    replyTo: fromAddress,
    subject,
    text,
    html,
  };
}
