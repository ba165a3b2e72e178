import nodemailer from 'nodemailer';
import type { MailConfig } from '@pagewright/shared';

export interface OutgoingMail {
  /** The To header, comma-separated (and the envelope, unless `envelopeTo` is given). */
  to: string;
  cc?: string;
  /**
   * The one address the mail is delivered to, when the headers show others (a message's To and Cc
   * lines): each recipient gets their own copy, and Bcc never reaches a header.
   */
  envelopeTo?: string;
  /** Shown as the sender's name beside MAIL_FROM's address (e.g. "ann@example.com via Pagewright"). */
  fromName?: string;
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
}

/** The bare address of a "Name <address>" sender. */
function addressOf(sender: string): string {
  return /<([^>]+)>/u.exec(sender)?.[1] ?? sender.trim();
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
      const { envelopeTo, fromName, ...message } = mail;
      const fromAddress = addressOf(config.MAIL_FROM);
      await transport.sendMail({
        ...message,
        from: fromName ? { name: fromName, address: fromAddress } : config.MAIL_FROM,
        envelope: envelopeTo ? { from: fromAddress, to: envelopeTo } : undefined,
      });
    },
    close(): void {
      transport.close();
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
