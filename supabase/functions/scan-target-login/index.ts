// Entry point on Supabase's edge runtime; the embedded stack imports handler.ts directly.
import handler from './handler.ts';

Deno.serve(handler);
