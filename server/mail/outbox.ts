import type { Transporter } from 'nodemailer';
import type { Database } from '../db/database.ts';
import type { Mailer, OutgoingMail } from '../context.ts';
import { extractLinks } from './links.ts';

export interface StoredMail extends OutgoingMail {
  id: string;
  links: string[];
  created_at: string;
}

export function createMailer(db: Database, smtpUrl: string | undefined, from: string): Mailer {
  // nodemailer loads only when mail is delivered for real (most stacks keep it in the outbox only).
  let transport: Promise<Transporter> | null = null;
  const smtp = smtpUrl
    ? {
        sendMail: async (message: OutgoingMail & { from: string }) => {
          transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
          return (await transport).sendMail(message);
        },
      }
    : null;
  return {
    async send(mail) {
      await db.query(
        `insert into vigil_platform.mail_outbox ("to", subject, text, html, links) values ($1, $2, $3, $4, $5)`,
        [mail.to, mail.subject, mail.text, mail.html, extractLinks(mail.html, mail.text)],
      );
      if (smtp) {
        // Delivery failures are logged, not thrown: the outbox already holds the message and the
        // caller (sign-up, reset) must not fail because a relay is down.
        await smtp.sendMail({ from, ...mail }).catch((e: unknown) => {
          console.error(`SMTP delivery to ${mail.to} failed: ${e instanceof Error ? e.message : String(e)}`);
        });
      }
    },
  };
}

export async function listMail(db: Database, to?: string, limit = 200): Promise<StoredMail[]> {
  const { rows } = await db.query<StoredMail>(
    `select id, "to", subject, text, html, links, to_json(created_at) #>> '{}' as created_at
       from vigil_platform.mail_outbox
      where $1::text is null or lower("to") = lower($1)
      order by created_at desc limit $2`,
    [to ?? null, limit],
  );
  return rows;
}
