// `npm run worker`: one agent worker against the backend in SUPABASE_URL with SUPABASE_SERVICE_ROLE_KEY
// (the embedded stack or hosted Supabase). VIGIL_LOCAL_MODE=1 lets scans reach loopback and private
// addresses (one machine); otherwise the hosted target policy refuses them. SMTP_URL delivers e-mail alerts.
import nodemailer from 'nodemailer';
import { z } from 'zod';
import { serviceClientFromEnv } from '../queue/client.ts';
import { startAgent } from './agent.ts';

const Env = z.object({
  VIGIL_LOCAL_MODE: z.enum(['0', '1', 'true', 'false']).optional(),
  VIGIL_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Vigil <alerts@vigil.local>'),
});

const env = Env.parse(process.env);
const smtp = env.SMTP_URL ? nodemailer.createTransport(env.SMTP_URL) : null;
const agent = startAgent({
  db: serviceClientFromEnv(),
  mode: env.VIGIL_LOCAL_MODE === '1' || env.VIGIL_LOCAL_MODE === 'true' ? 'local' : 'hosted',
  concurrency: env.VIGIL_WORKER_CONCURRENCY,
  ...(smtp
    ? { mail: { send: async (mail) => void (await smtp.sendMail({ from: env.MAIL_FROM, ...mail })) } }
    : {}),
});
console.log(
  `Vigil agent worker ${agent.worker.id} started${smtp ? '' : ' (no SMTP_URL: e-mail alerts wait in the outbox)'}`,
);

const shutdown = () => {
  console.log('stopping: finishing the jobs in hand…');
  agent.stop().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
