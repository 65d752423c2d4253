// `npm run stack:status -- --json`: the status of the stack running on VIGIL_PORT, whatever its data dir
// (like `supabase status -o json`). It asks the running stack itself, so it needs no data-dir path.
import { processSettings } from '../config.ts';

const { VIGIL_PORT: port, VIGIL_HOST: host } = processSettings();
const json = process.argv.includes('--json');

try {
  const res = await fetch(`http://${host}:${port}/_stack/status`, { signal: AbortSignal.timeout(3000) });
  if (!res.ok) {
    throw new Error(`the server on port ${port} answered ${res.status}`);
  }
  const status = (await res.json()) as Record<string, string>;
  if (json) {
    console.log(JSON.stringify(status));
  } else {
    for (const [k, v] of Object.entries(status)) {
      console.log(`${k.padEnd(18)} ${v}`);
    }
  }
} catch (e) {
  console.error(
    `No Vigil stack is running on ${host}:${port} (${e instanceof Error ? e.message : String(e)}). Start it with npm start.`,
  );
  process.exit(1);
}
export {};
