import type { StackConfig } from './config.ts';
import type { Database } from './db/database.ts';
import type { KeyRing } from './keys.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends e-mail: always into the local outbox (/_mail), and over SMTP too when SMTP_URL is set. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** Everything the stack's services share. Built once in stack.ts and passed to each router. */
export interface StackContext {
  config: StackConfig;
  db: Database;
  keys: KeyRing;
  mailer: Mailer;
  /** Seals and opens scan-target logins; never stored in the database. */
  credentialsKey: string;
}

/** What `npm run stack:status -- --json` prints and `stack.json` in the data dir holds. */
export interface StackStatus {
  api_url: string;
  anon_key: string;
  service_role_key: string;
  mail_url: string;
  db: string;
}
