// CORS misconfiguration probe, shared by the web-application and API scanners: does the server echo an
// arbitrary Origin together with Access-Control-Allow-Credentials, or trust Origin: null? Only a successful
// answer (2xx) is judged: an error page (a folder's 403, a 404) gives a reading site nothing, though a
// policy set for a whole location (nginx's `add_header … always`) puts the headers on it too.
import type { HttpClient } from './http-client.ts';
import { header } from './http-client.ts';

export const corsProbeOrigin = 'https://vigil-cors-check.example';

export interface CorsResult {
  reflected: string | null;
  nullOrigin: string | null;
}

const successful = (status: number) => status >= 200 && status < 300;

export async function probeCors(client: HttpClient, url: URL): Promise<CorsResult> {
  const result: CorsResult = { reflected: null, nullOrigin: null };
  const evil = await client.tryRequest(url, { headers: { origin: corsProbeOrigin } });
  if (
    evil &&
    successful(evil.status) &&
    header(evil, 'access-control-allow-origin') === corsProbeOrigin &&
    /true/i.test(header(evil, 'access-control-allow-credentials') ?? '')
  ) {
    result.reflected = `Origin: ${corsProbeOrigin} answered Access-Control-Allow-Origin: ${corsProbeOrigin} with Access-Control-Allow-Credentials: true`;
  }
  const nul = await client.tryRequest(url, { headers: { origin: 'null' } });
  if (nul && successful(nul.status) && header(nul, 'access-control-allow-origin') === 'null') {
    const credentials = /true/i.test(header(nul, 'access-control-allow-credentials') ?? '')
      ? ' with credentials'
      : '';
    result.nullOrigin = `Origin: null answered Access-Control-Allow-Origin: null${credentials}`;
  }
  return result;
}
