// `npm run worker`: one agent worker against the backend in SUPABASE_URL with SUPABASE_SERVICE_ROLE_KEY
// (the embedded stack or hosted Supabase). VIGIL_LOCAL_MODE=true lets scans reach loopback and private
// addresses (one machine); by default the hosted target policy refuses them. SMTP_URL delivers e-mail alerts.
import nodemailer from 'nodemailer';
import { readSettings, WorkerSettings } from '../../shared/settings.ts';
import { scannerSettings } from '../scanners/core/settings.ts';
import { serviceClientFromEnv } from '../queue/client.ts';
import { logUnhandledRejections } from '../lib/process-guard.ts';
import { startAgent } from './agent.ts';

logUnhandledRejections();

// Every setting is read here, before any work: a value that means nothing stops the worker.
const env = readSettings(WorkerSettings, process.env);
scannerSettings();
const smtp = env.SMTP_URL ? nodemailer.createTransport(env.SMTP_URL) : null;
const agent = startAgent({
  db: serviceClientFromEnv({
    SUPABASE_URL: env.SUPABASE_URL,
    SUPABASE_SERVICE_ROLE_KEY: env.SUPABASE_SERVICE_ROLE_KEY,
  }),
  mode: env.VIGIL_LOCAL_MODE ? 'local' : 'hosted',
  ...(env.VIGIL_CREDENTIALS_KEY ? { credentialsKey: env.VIGIL_CREDENTIALS_KEY } : {}),
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
