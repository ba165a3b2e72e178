import { waitFor } from './ports.js';

export interface CaughtMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: { address: string }[];
  cc?: { address: string }[];
  /** Where the SMTP server was told to deliver it (one address per copy for message e-mails). */
  envelope: { to: { address: string }[] };
  headers: Record<string, unknown>;
}

/** The maildev inbox, read over its REST API like a person reads a mailbox. */
export function createInbox(mailUrl: string) {
  const all = async (): Promise<CaughtMail[]> =>
    (await fetch(`${mailUrl}/email`)).json() as Promise<CaughtMail[]>;
  return {
    all,
    /** Waits for the newest mail to `address` whose subject contains `subject`. */
    async latest(address: string, subject: string, timeoutMs = 10_000): Promise<CaughtMail> {
      return waitFor(
        async () => {
          const mails = (await all()).filter(
            (m) =>
              m.subject.includes(subject) &&
              m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()),
          );
          return mails.at(-1);
        },
        `an e-mail "${subject}" to ${address}`,
        timeoutMs,
      );
    },
    /** Waits for the newest copy delivered to `address` (its SMTP envelope, not its headers). */
    async delivered(address: string, subject: string, timeoutMs = 15_000): Promise<CaughtMail> {
      return waitFor(
        async () =>
          (await all())
            .filter(
              (m) =>
                m.subject.includes(subject) &&
                m.envelope.to.some((t) => t.address.toLowerCase() === address.toLowerCase()),
            )
            .at(-1),
        `an e-mail "${subject}" delivered to ${address}`,
        timeoutMs,
      );
    },
    /** Every copy whose subject contains `subject`, by the address it was delivered to. */
    async deliveredAddresses(subject: string): Promise<string[]> {
      return (await all())
        .filter((m) => m.subject.includes(subject))
        .flatMap((m) => m.envelope.to.map((t) => t.address.toLowerCase()))
        .sort();
    },
    async count(address: string): Promise<number> {
      return (await all()).filter((m) => m.to.some((t) => t.address.toLowerCase() === address.toLowerCase()))
        .length;
    },
  };
}

export function confirmationLink(mail: CaughtMail): string {
  const match = mail.text.match(/https?:\/\/\S+\/user\/confirmation\/[\w-]+/);
  if (!match) throw new Error(`no confirmation link in: ${mail.text}`);
  return match[0];
}

export function temporaryPassword(mail: CaughtMail): string {
  const match = mail.text.match(/temporary password is: (\S+)/);
  if (!match?.[1]) throw new Error(`no temporary password in: ${mail.text}`);
  return match[1];
}
