import { cors } from 'hono/cors';

// What supabase-js sends and reads from a browser (wire contract §1.2).
export const corsMiddleware = cors({
  origin: (origin) => origin || '*',
  allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
  allowHeaders: [
    'authorization',
    'x-client-info',
    'apikey',
    'content-type',
    'x-retry-count',
    'traceparent',
    'tracestate',
    'baggage',
    'accept-profile',
    'content-profile',
    'prefer',
    'range',
    'x-supabase-api-version',
    'x-region',
    'accept',
    'x-upsert',
    'cache-control',
  ],
  exposeHeaders: [
    'Content-Range',
    'X-Supabase-Api-Version',
    'X-Total-Count',
    'Link',
    'Preference-Applied',
    'Content-Location',
    'Location',
  ],
  maxAge: 86400,
});
