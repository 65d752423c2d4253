import { describe, expect, it } from 'vitest';

import { apiDocsFindings, describeApiDocument, describeDocsPage } from './api-docs.ts';

describe('API documents', () => {
  it('recognises OpenAPI 3 and Swagger 2 documents, JSON or YAML', () => {
    expect(describeApiDocument('{"openapi":"3.0.3","info":{},"paths":{"/a":{},"/b":{}}}')).toBe(
      'OpenAPI 3.0.3 document, 2 paths',
    );
    expect(describeApiDocument(' {"swagger":"2.0","paths":{}}')).toBe('Swagger 2.0 document, 0 paths');
    expect(describeApiDocument('openapi: 3.1.0\ninfo:\n  title: x\npaths:\n  /a:\n    get: {}\n')).toBe(
      'OpenAPI 3.1.0 document',
    );
    expect(describeApiDocument("swagger: '2.0'\npaths:\n")).toBe('Swagger 2.0 document');
  });

  it('a JSON document too long to parse (cut at the size cap) is judged on its head', () => {
    const cut = `{"openapi":"3.0.0","paths":{${'"/x":{},'.repeat(80_000)}`;
    expect(describeApiDocument(cut)).toBe('OpenAPI 3.0.0 document');
  });

  it('refuses what only looks like one', () => {
    for (const body of [
      '',
      'not json',
      '{"openapi":"3.0.0"}', // no paths
      '{"openapi":3,"paths":{}}', // a number, not a version
      '{"swagger":"1.2","paths":{}}',
      '{"openapi":"3.0.0","paths":[]}',
      '[{"openapi":"3.0.0","paths":{}}]',
      '{"info": {"openapi": "3.0.0"}, "paths": {}}', // the version must be the document's own
      '{"openapi": "3.0.0", "info": {', // cut short before any paths
      '<!doctype html><html><body>openapi: 3.0.0</body></html>',
      '# docs\nopenapi: 3.0.0 is what we use\n',
    ]) {
      expect(describeApiDocument(body), body).toBeNull();
    }
  });

  it('recognises documentation pages, not pages that merely mention them', () => {
    expect(
      describeDocsPage(
        '<!DOCTYPE html><html><div id="swagger-ui"></div><script src="./swagger-ui-bundle.js"></script>',
      ),
    ).toBe('Swagger UI page');
    expect(describeDocsPage('<!doctype html><html><body><redoc spec-url="/openapi.json"></redoc>')).toBe(
      'ReDoc page',
    );
    expect(describeDocsPage('<!doctype html><html><rapi-doc spec-url="x"></rapi-doc>')).toBe('RapiDoc page');
    expect(
      describeDocsPage('<!doctype html><html><p>We use Swagger UI and ReDoc for our docs.</p>'),
    ).toBeNull();
    expect(describeDocsPage('SwaggerUIBundle({})')).toBeNull(); // not HTML
  });

  it('files one finding for the site, naming every place (at most ten, then a count)', () => {
    const start = new URL('http://shop.test/app/');
    expect(apiDocsFindings(start, [])).toEqual([]);
    const docs = Array.from({ length: 12 }, (_, i) => ({
      url: `http://shop.test/d${i}`,
      what: 'Swagger UI page',
    }));
    const [finding, ...rest] = apiDocsFindings(start, docs);
    expect(rest).toEqual([]);
    expect(finding!.rule_id).toBe('web.exposed.api-docs');
    expect(finding!.location).toBe('http://shop.test/');
    expect(finding!.evidence).toContain('/d0 (Swagger UI page)');
    expect(finding!.evidence).toContain('and 2 more');
  });
});
