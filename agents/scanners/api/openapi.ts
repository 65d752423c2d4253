// Reads an OpenAPI 3 document, JSON or YAML, into the operations the API scanner exercises.
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

import type { HttpClient } from '../core/http-client.ts';
import { ScanCannotRunError } from '../core/reach.ts';

const parameterSchema = z.object({
  name: z.string(),
  in: z.enum(['query', 'path', 'header', 'cookie']),
  required: z.boolean().optional(),
  schema: z
    .object({ type: z.string().optional(), format: z.string().optional(), example: z.unknown().optional() })
    .passthrough()
    .optional(),
  example: z.unknown().optional(),
});
const operationSchema = z
  .object({
    parameters: z.array(parameterSchema).optional(),
    security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
    requestBody: z
      .object({ content: z.record(z.string(), z.unknown()).optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();
const documentSchema = z
  .object({
    openapi: z.string().startsWith('3.'),
    servers: z.array(z.object({ url: z.string() })).optional(),
    security: z.array(z.record(z.string(), z.array(z.string()))).optional(),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .passthrough();

export const httpMethods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export interface Operation {
  method: string;
  /** Path template as written in the document, e.g. /users/{id}. */
  path: string;
  /** Base URL on the target plus the path with example values filled in. */
  url: URL;
  secured: boolean;
  queryParams: string[];
  pathParams: string[];
  jsonBody: boolean;
  /**
   * A JSON body of the shape the document gives (its top-level properties, with their examples or a
   * placeholder of their type), when the operation takes a JSON object.
   */
  bodySample?: Record<string, unknown>;
}

export const discoveryPaths = [
  '/openapi.json',
  '/openapi.yaml',
  '/openapi.yml',
  '/swagger.json',
  '/swagger.yaml',
  '/v3/api-docs',
  '/api-docs',
  '/api/openapi.json',
  '/api/swagger.json',
];

function exampleValue(param: z.infer<typeof parameterSchema>): string {
  const example = param.example ?? param.schema?.example;
  if (typeof example === 'string' || typeof example === 'number') {
    return String(example);
  }
  if (param.schema?.format === 'uuid') {
    return '00000000-0000-4000-8000-000000000000';
  }
  return param.schema?.type === 'integer' || param.schema?.type === 'number' ? '1' : 'test';
}

/**
 * The document in `text`: JSON when it reads as a JSON object, YAML otherwise. YAML aliases are capped
 * (the library's default of 100) so a hostile "billion laughs" document cannot blow up memory.
 */
export function parseOpenApiText(text: string): unknown {
  if (text.trimStart().startsWith('{')) {
    return JSON.parse(text);
  }
  return parseYaml(text, { maxAliasCount: 100 });
}

const schemaSchema = z
  .object({
    $ref: z.string().optional(),
    type: z.string().optional(),
    properties: z
      .record(
        z.string(),
        z.object({ type: z.string().optional(), example: z.unknown().optional() }).passthrough(),
      )
      .optional(),
  })
  .passthrough();

/** The schema `ref` names inside the document (`#/components/schemas/Name`), or null. */
function resolveRef(raw: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) {
    return null;
  }
  let node: unknown = raw;
  for (const part of ref.slice(2).split('/').slice(0, 6)) {
    node =
      typeof node === 'object' && node !== null
        ? (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')]
        : undefined;
  }
  return node ?? null;
}

/** A sample JSON object for a request body's JSON schema: top-level properties only, one $ref followed. */
function bodySampleOf(
  raw: unknown,
  content: Record<string, unknown> | undefined,
): { bodySample?: Record<string, unknown> } {
  const type = Object.keys(content ?? {}).find((t) => t.includes('json'));
  const media = type ? (content![type] as { schema?: unknown } | undefined) : undefined;
  let schema = schemaSchema.safeParse(media?.schema).data;
  if (schema?.$ref) {
    schema = schemaSchema.safeParse(resolveRef(raw, schema.$ref)).data;
  }
  if (!schema?.properties) {
    return {};
  }
  const sample: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties).slice(0, 40)) {
    const example = property.example;
    sample[name] =
      example !== undefined && (typeof example !== 'object' || example === null)
        ? example
        : property.type === 'integer' || property.type === 'number'
          ? 1
          : property.type === 'boolean'
            ? false
            : property.type === 'string' || property.type === undefined
              ? 'test'
              : null;
  }
  return { bodySample: sample };
}

/** Operations of `raw`, each on the target's origin (a document must not send us to another host). */
export function readOperations(raw: unknown, target: URL, specUrl: URL): Operation[] {
  const doc = documentSchema.parse(raw);
  const server = new URL(doc.servers?.[0]?.url ?? '/', specUrl);
  const basePath = server.pathname.replace(/\/$/, '');
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared =
      z.array(parameterSchema).safeParse((item as { parameters?: unknown }).parameters).data ?? [];
    for (const method of httpMethods) {
      const parsed = operationSchema.safeParse(item[method]);
      if (!parsed.success) {
        continue;
      }
      const op = parsed.data;
      const params = [...shared, ...(op.parameters ?? [])];
      const security = op.security ?? doc.security ?? [];
      // An empty requirement object ({}) makes authentication optional.
      const secured = security.length > 0 && !security.some((req) => Object.keys(req).length === 0);
      const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const param = params.find((p) => p.in === 'path' && p.name === name);
        return encodeURIComponent(param ? exampleValue(param) : '1');
      });
      const url = new URL(`${basePath}${filled}`, target.origin);
      for (const param of params.filter((p) => p.in === 'query' && p.required)) {
        url.searchParams.set(param.name, exampleValue(param));
      }
      operations.push({
        method: method.toUpperCase(),
        path,
        url,
        secured,
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        jsonBody: Object.keys(op.requestBody?.content ?? {}).some((type) => type.includes('json')),
        ...bodySampleOf(raw, op.requestBody?.content),
      });
    }
  }
  return operations;
}

/** Fetches the document from --openapi, or from the first well-known path that has one. */
export async function loadOperations(
  client: HttpClient,
  target: URL,
  openapi?: string,
): Promise<{ specUrl: URL | null; operations: Operation[] }> {
  const candidates = openapi
    ? [new URL(openapi, target)]
    : discoveryPaths.map((path) => new URL(path, target.origin));
  for (const specUrl of candidates) {
    const response = await client.tryRequest(specUrl, { followRedirects: 'same-origin' });
    if (response?.status !== 200) {
      continue;
    }
    try {
      return { specUrl, operations: readOperations(parseOpenApiText(response.body), target, specUrl) };
    } catch (error) {
      // Guard: with an explicit --openapi a broken document is the user's error; while discovering it just is not one.
      if (openapi) {
        throw new ScanCannotRunError(
          `the OpenAPI document at ${specUrl.href} is not a valid OpenAPI 3 document (JSON or YAML): ${error instanceof Error ? error.message.slice(0, 200) : String(error)}`,
          { cause: error },
        );
      }
    }
  }
  return { specUrl: null, operations: [] };
}
