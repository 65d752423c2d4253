// API documents at their common paths: an OpenAPI 3 or Swagger 2 document (JSON or YAML) or the page of a
// documentation UI (Swagger UI, ReDoc, RapiDoc) that anyone can fetch. What the frameworks and their
// documentation middleware serve by default: swagger-ui-express at the path the app mounts it on (its docs
// use /api-docs), @fastify/swagger-ui at /documentation (document at /documentation/json), springdoc at
// /v3/api-docs and /swagger-ui.html, springfox at /v2/api-docs, Swashbuckle at /swagger/v1/swagger.json,
// koa2-swagger-ui at /docs. A path counts only when its content is a document or a documentation page
// (an SPA that answers 200 everywhere shows neither); every place found is one finding at the site's
// root, since one setting publishes them all. Passive: GETs a browser could make.
import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import { webappFinding } from './rules.ts';

/** Paths under the site's root (and under each API root found) where documents and their UIs live. */
export const apiDocPaths = [
  'openapi.json',
  'openapi.yaml',
  'swagger.json',
  'swagger.yaml',
  'api-docs',
  'api-docs/swagger.json',
  'v2/api-docs',
  'v3/api-docs',
  'swagger-ui.html',
  'swagger-ui/',
  'swagger/',
  'swagger/v1/swagger.json',
  'docs',
  'documentation',
  'documentation/json',
  'redoc',
] as const;

/** The API roots the document paths are also tried under (besides the root). */
const apiRoots = ['api/'];

/** Enough of a document to judge it; a longer one is cut, and judged on its head. */
const MAX_DOC_BYTES = 512 * 1024;
/** A document is judged whole only up to this size (JSON.parse of a cut body fails; the head is read then). */
const parseLimit = MAX_DOC_BYTES;

export interface ApiDocument {
  url: string;
  /** "OpenAPI 3.0.3 document, 12 paths", "Swagger UI page". */
  what: string;
}

/** An OpenAPI or Swagger document in `body` (JSON or YAML), described; null when it is not one. */
export function describeApiDocument(body: string): string | null {
  const text = body.trimStart();
  if (text.startsWith('{') && text.length <= parseLimit) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      doc = null;
    }
    if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
      const record = doc as Record<string, unknown>;
      const version =
        typeof record.openapi === 'string' && /^3\.\d/.test(record.openapi)
          ? `OpenAPI ${record.openapi}`
          : record.swagger === '2.0'
            ? 'Swagger 2.0'
            : null;
      const paths = record.paths;
      if (version && paths && typeof paths === 'object' && !Array.isArray(paths)) {
        return `${version} document, ${Object.keys(paths).length} paths`;
      }
      return null;
    }
  }
  // YAML (or JSON too long to parse): the version key at the top level and a paths map.
  const yamlVersion = /^(openapi|swagger):[ \t]*["']?(3\.\d[\w.-]*|2\.0)["']?[ \t]*$/m.exec(
    text.slice(0, 4096),
  );
  const jsonHead = /^\{\s*"(openapi|swagger)"\s*:\s*"(3\.\d[\w.-]*|2\.0)"/.exec(text);
  const version = yamlVersion ?? jsonHead;
  if (version && (/^paths:[ \t]*$/m.test(text) || /"paths"\s*:\s*\{/.test(text))) {
    return `${version[1] === 'openapi' ? 'OpenAPI' : 'Swagger'} ${version[2]} document`;
  }
  return null;
}

/** A documentation UI's page in `body`; null when it is not one. */
export function describeDocsPage(body: string): string | null {
  const head = body.slice(0, 64 * 1024);
  if (!/<html|<!doctype html/i.test(head)) {
    return null;
  }
  if (/swagger-ui-bundle\.js|SwaggerUIBundle\s*\(|swagger-ui-init\.js|id=["']swagger-ui["']/.test(head)) {
    return 'Swagger UI page';
  }
  if (/<redoc[\s>]|redoc\.standalone\.js/i.test(head)) {
    return 'ReDoc page';
  }
  if (/<rapi-doc[\s>]/i.test(head)) {
    return 'RapiDoc page';
  }
  return null;
}

function judge(response: HttpResponse | null): string | null {
  if (!response || response.status !== 200) {
    return null;
  }
  const type = (header(response, 'content-type') ?? '').toLowerCase();
  return type.includes('html') ? describeDocsPage(response.body) : describeApiDocument(response.body);
}

/** The documents and documentation pages anyone can fetch at the common paths of `start`'s site. */
export async function findApiDocuments(
  client: HttpClient,
  start: URL,
  tick: (done: number, total: number) => void,
): Promise<ApiDocument[]> {
  const bases = [new URL('/', start), ...apiRoots.map((root) => new URL(`/${root}`, start))];
  const urls = bases.flatMap((base) => apiDocPaths.map((p) => new URL(p, base)));
  const found: ApiDocument[] = [];
  let done = 0;
  await forEachLimit(
    urls,
    4,
    async (url) => {
      // Same-origin redirects only (swagger-ui-express answers /api-docs with a redirect to /api-docs/).
      const response = await client.tryRequest(url, {
        followRedirects: 'same-origin',
        maxBodyBytes: MAX_DOC_BYTES,
        anonymous: true,
      });
      const what = judge(response);
      if (what && response && !found.some((d) => d.url === response.url)) {
        found.push({ url: response.url, what });
      }
      tick(++done, urls.length);
    },
    client.signal,
  );
  return found.sort((a, b) => a.url.localeCompare(b.url));
}

/** One finding for the site, naming every place its API documentation is published. */
export function apiDocsFindings(start: URL, documents: readonly ApiDocument[]): Finding[] {
  if (documents.length === 0) {
    return [];
  }
  const places = documents.map((d) => `${new URL(d.url).pathname} (${d.what})`);
  return [
    webappFinding('web.exposed.api-docs', {
      location: new URL('/', start).href,
      evidence: `Fetched without credentials: ${places.slice(0, 10).join('; ')}${places.length > 10 ? `; and ${places.length - 10} more` : ''}`,
    }),
  ];
}
