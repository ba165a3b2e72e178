import nodemailer from 'nodemailer';
import type { MailConfig } from '@pagewright/shared';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends e-mail over the configured SMTP server (a local catcher by default, see README). The API
 * sends account mails with it; the worker sends the mail queue's jobs (retried when the server is
 * down).
 */
export function createMailer(config: MailConfig) {
  const transport = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? '' } : undefined,
    // A catcher on localhost speaks plain SMTP; real relays negotiate STARTTLS themselves.
    ignoreTLS: !config.SMTP_SECURE && !config.SMTP_USER,
  });
  return {
    async send(mail: OutgoingMail): Promise<void> {
      await transport.sendMail({ from: config.MAIL_FROM, ...mail });
    },
    close(): void {
      transport.close();
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
