import { describe, expect, it } from 'vitest';
import { screenShareMail } from './screen-share.mail.js';

describe('screen-share e-mail', () => {
  const link = 'https://pagewright.example/screen-share-viewer/abc_DEF-123';
  const mail = screenShareMail('viewer@example.com', {
    ownerFullName: 'Ada Lovelace',
    navigatorName: 'Statements <run>',
    link,
    expiresAt: new Date('2030-01-02T03:04:05Z'),
  });

  it('sends the viewer link with who shares what and until when', () => {
    expect(mail.to).toBe('viewer@example.com');
    expect(mail.subject).toBe('Ada Lovelace shares the navigator "Statements <run>" with you');
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.text).toContain('Wed, 02 Jan 2030 03:04:05 GMT');
    expect(mail.html).toContain(`<a href="${link}">${link}</a>`);
  });

  it('escapes the names the owner chose in the HTML part', () => {
    expect(mail.html).toContain('<b>Statements &lt;run&gt;</b>');
    expect(mail.html).not.toContain('<run>');
    expect(mail.html).toContain('named you as the viewer of a navigator');
  });
});
