import WebSocket from 'ws';

/**
 * Web globals that Supabase's edge runtime (Deno) has and Node 20 lacks, so that handlers run
 * unchanged in process: supabase-js's createClient needs a global WebSocket (Node 22+ has one).
 */
export function provideEdgeRuntimeGlobals(): void {
  const g = globalThis as { WebSocket?: unknown };
  if (typeof g.WebSocket === 'undefined') {
    g.WebSocket = WebSocket;
  }
}
