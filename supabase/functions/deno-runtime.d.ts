// The few Deno globals that index.ts files use, for the Node typecheck (tsc) only. `deno check` never
// loads this file (nothing imports it) and uses Deno's own declarations instead.
declare namespace Deno {
  function serve(handler: (req: Request) => Response | Promise<Response>): unknown;
}
