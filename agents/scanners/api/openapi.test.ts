import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseOpenApiText, readOperations } from './openapi.ts';

const doc = {
  openapi: '3.0.3',
  security: [{ bearerAuth: [] }],
  paths: {
    '/users/{id}': {
      get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }] },
    },
    '/health': { get: { security: [{}] } },
  },
};
const target = new URL('http://127.0.0.1:8080/');

describe('OpenAPI documents', () => {
  it('reads the same operations from YAML as from JSON', () => {
    const fromJson = readOperations(parseOpenApiText(JSON.stringify(doc)), target, target);
    const fromYaml = readOperations(parseOpenApiText(stringify(doc)), target, target);
    expect(fromYaml).toEqual(fromJson);
    expect(fromYaml.map((op) => [op.method, op.url.pathname, op.secured])).toEqual([
      ['GET', '/users/1', true],
      ['GET', '/health', false],
    ]);
  });

  it('gives a JSON request body of the documented shape, following a $ref to the components', () => {
    const ops = readOperations(
      {
        openapi: '3.0.3',
        paths: {
          '/notes': {
            post: {
              requestBody: {
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Note' } } },
              },
            },
          },
          '/upload': { post: { requestBody: { content: { 'text/plain': { schema: { type: 'string' } } } } } },
        },
        components: {
          schemas: {
            Note: {
              type: 'object',
              properties: {
                title: { type: 'string', example: 'Hello' },
                stars: { type: 'integer' },
                done: { type: 'boolean' },
                body: {},
                tags: { type: 'array', example: ['a'] },
              },
            },
          },
        },
      },
      target,
      target,
    );
    expect(ops.map((op) => op.bodySample)).toEqual([
      { title: 'Hello', stars: 1, done: false, body: 'test', tags: null },
      undefined,
    ]);
  });

  it('refuses an HTML page or a YAML scalar as a document', () => {
    expect(() => readOperations(parseOpenApiText('<!doctype html><p>hi'), target, target)).toThrow();
    expect(() => readOperations(parseOpenApiText('just text'), target, target)).toThrow();
  });

  it('refuses a YAML alias bomb instead of expanding it', () => {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++) {
      const prev = `*a${i - 1}`;
      lines.push(`a${i}: &a${i} [${Array(10).fill(prev).join(', ')}]`);
    }
    expect(() => parseOpenApiText(lines.join('\n'))).toThrow(/alias/i);
  });
});
