import { escapeHtml, layout } from '@pagewright/mail';
import type { OutgoingMail } from '@pagewright/mail';

export interface ScreenShareMailContent {
  ownerFullName: string;
  navigatorName: string;
  link: string;
  expiresAt: Date;
}

/** Invites a navigator's viewer to watch its session read-only through the screen-share link. */
export function screenShareMail(to: string, content: ScreenShareMailContent): OutgoingMail {
  const { ownerFullName, navigatorName, link } = content;
  const until = content.expiresAt.toUTCString();
  return {
    to,
    subject: `${ownerFullName} shares the navigator "${navigatorName}" with you`,
    text: `Hello,\n\n${ownerFullName} shares the navigator "${navigatorName}" with you on Pagewright. Watch it, read-only, by opening this link:\n${link}\n\nThe link works until ${until}. Anyone who has it can watch, so do not forward it.`,
    html: layout(
      'A navigator is shared with you',
      `<p>Hello,</p><p>${escapeHtml(ownerFullName)} shares the navigator <b>${escapeHtml(navigatorName)}</b> with you on Pagewright. Watch it, read-only, by clicking the link below:</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p>The link works until ${escapeHtml(until)}. Anyone who has it can watch, so do not forward it.</p>`,
      'You receive this e-mail because a Pagewright user named you as the viewer of a navigator.',
    ),
  };
}
