// XML external entities (XXE): places that parse XML we send and resolve an external entity in it read a
// local file for us. Where the crawl saw XML accepted (requests the app itself sent with an XML body, and
// answers that are XML) the probe is a POST of a small document; at file-upload forms it is an uploaded
// .xml file (which the target may keep: that part is intrusive and runs only with consent, see
// registry.ts). The probe reads file:///etc/passwd, which every Unix has, and nothing else: no network
// entity (that would be a server-side request), no entity that expands into more entities (no "billion
// laughs"), nothing that writes. Each probe has a control, the same document with a harmless internal
// entity: only a passwd line that the probe's answer shows and the control's does not is a finding, so a
// page that always shows passwd text is not one. The evidence quotes the first matched line alone.
import { randomBytes } from 'node:crypto';

import type { Finding } from '../../../shared/findings.ts';
import type { HttpClient, HttpResponse } from '../core/http-client.ts';
import { header } from '../core/http-client.ts';
import { forEachLimit } from '../core/pool.ts';
import type { ApiCall } from './browser/api-calls.ts';
import type { Page } from './crawl.ts';
import { pathsInScript } from './discovery/js-paths.ts';
import { isHtml } from './html.ts';
import { webappFinding } from './rules.ts';
import { detailedForms } from './write/forms.ts';
import type { DetailedForm } from './write/forms.ts';

export const xxeLimits = {
  /** Places tried per check (XML bodies and XML answers; upload forms). */
  maxPlaces: 10,
  /** Leaf elements of the app's own document that get the entity reference. */
  maxLeaves: 20,
  /** Upload paths taken from the site's scripts (no form names them). */
  maxScriptUploads: 3,
  /** Bytes of the app's own XML body used as the probe's template (a larger one: the generic document). */
  maxTemplate: 8000,
};

/** The only file the probe reads. */
export const probedFile = 'file:///etc/passwd';

/** A passwd entry for root, as the file has it: the seven fields, bounded, on one line. */
const passwdRoot = /\broot:[^:\r\n<>"]{0,40}:0:0:[^:\r\n<>"]{0,60}:[^:\r\n<>"]{0,60}:[^:\s<>"\\]{0,60}/;

/** XML media types (SOAP's included), but not images: an SVG answer is a picture, not an XML endpoint. */
const xmlContentType = /^(?!image\/)[^;]*(?:[/+]xml\b|soap)/i;

export type XxeVariant = 'external entity' | 'parameter entity';

/** Where the probe goes and how it is sent. */
export interface XxePlace {
  url: URL;
  /** How the crawl knew the place takes XML (for the evidence). */
  why: string;
  /** The app's own XML body, when it sent one: the probe keeps its elements. */
  template?: string;
  /** The request's content type (the app's own, else application/xml). */
  contentType: string;
  /** The SOAPAction header the app sent with it (SOAP 1.1 services route by it). */
  soapAction?: string;
  /** An upload form: the document goes as a file in this field, with the form's other fields. */
  upload?: { field: string; form: DetailedForm };
}

export interface XxeDocument {
  variant: XxeVariant;
  probe: string;
  control: string;
}

/** Element names a generic document offers an app that reads one field of an XML body it does not own. */
const genericFields = ['name', 'title', 'description', 'comment', 'message', 'text', 'value', 'data'];

/** A leaf whose sample text is at least this long is a text field (a description), not a name or a code. */
const longText = 24;

/** The first element's name (the prolog and DOCTYPE already removed; `<?` and `<!` never match). */
const rootOf = (xml: string): string | null =>
  /<([A-Za-z_][\w.-]*(?::[\w.-]+)?)[\s/>]/.exec(xml)?.[1] ?? null;

/**
 * The body a probe sends, with `ref` in its text: the app's own document with each leaf element's text
 * replaced (its first `maxLeaves`), else a generic one offering the usual field names. With `short`, the
 * document is an import's records, which the app stores: only the leaves whose sample text is long (a
 * description) get `ref`, and each short one (a name, a code: a column of 255 characters, a unique key)
 * gets `short(n)`, unique to the document; with no long leaf at all, every leaf gets `ref`.
 */
export function documentBody(
  template: string | undefined,
  ref: string,
  short?: (n: number) => string,
): { root: string; body: string } {
  const own = template && template.length <= xxeLimits.maxTemplate ? template : undefined;
  const stripped = own
    ?.replace(/^\uFEFF?\s*<\?xml[\s\S]*?\?>/, '')
    .replace(/<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>/i, '')
    .trim();
  const root = stripped ? rootOf(stripped) : null;
  if (stripped && root) {
    const leaf = />(\s*[^<>\s][^<>]*)<\//g;
    const long = (text: string) => text.trim().length >= longText;
    const anyLong = short !== undefined && [...stripped.matchAll(leaf)].some((m) => long(m[1]!));
    let leaves = 0;
    const body = stripped.replace(leaf, (whole, text: string) =>
      leaves < xxeLimits.maxLeaves
        ? `>${anyLong && !long(text) ? short(leaves++) : (leaves++, ref)}</`
        : whole,
    );
    if (leaves > 0) {
      return { root, body };
    }
    // No text to replace: the reference goes in the root element.
    const closing = new RegExp(`</${root.replace(/[.]/g, '\\.')}>\\s*$`);
    if (closing.test(body)) {
      return { root, body: body.replace(closing, `${ref}</${root}>`) };
    }
  }
  return {
    root: 'vigil',
    body: `<vigil>${genericFields.map((field) => `<${field}>${ref}</${field}>`).join('')}</vigil>`,
  };
}

/**
 * The two probes and their controls. "external entity": a general entity whose value is the file,
 * referenced in the text the app may echo; its control declares the entity with a harmless inline
 * value. "parameter entity": the file is read as part of the DTD, where it is not valid markup, and a
 * parser that reports its errors quotes the file's first line; its control's parameter entity holds a
 * harmless declaration instead. Neither names anything but `probedFile`, nor nests entities.
 */
export function xxeDocuments(template: string | undefined, token: string, stored = false): XxeDocument[] {
  const harmless = `vigil${token}`;
  // A stored import's short fields differ between control and probe (a unique code takes one of each).
  const short = (which: string) => (stored ? (n: number) => `${harmless}${which}${n}` : undefined);
  const body = (ref: string, which: string) => documentBody(template, ref, short(which));
  const { root } = body('&vigil;', 'p');
  const prolog = '<?xml version="1.0" encoding="UTF-8"?>\n';
  return [
    {
      variant: 'external entity',
      probe: `${prolog}<!DOCTYPE ${root} [<!ENTITY vigil SYSTEM "${probedFile}">]>\n${body('&vigil;', 'p').body}`,
      control: `${prolog}<!DOCTYPE ${root} [<!ENTITY vigil "${harmless}">]>\n${body('&vigil;', 'c').body}`,
    },
    {
      variant: 'parameter entity',
      probe: `${prolog}<!DOCTYPE ${root} [<!ENTITY % vigil SYSTEM "${probedFile}"> %vigil;]>\n${body(harmless, 'q').body}`,
      control: `${prolog}<!DOCTYPE ${root} [<!ENTITY % vigil "<!ENTITY vigil${token} '${harmless}'>"> %vigil;]>\n${body(harmless, 'd').body}`,
    },
  ];
}

/**
 * The passwd line the probe's answer shows and the control's does not, or null. Only the matched line
 * comes back, never more of the file.
 */
export function judgeXxe(probe: HttpResponse | null, control: HttpResponse | null): string | null {
  // Guard: without the control's answer nothing can be told apart from a page that shows passwd anyway.
  if (!probe || !control) {
    return null;
  }
  // JSON may write "/" as "\/" (PHP's json_encode does).
  const text = (response: HttpResponse) => response.body.replace(/\\\//g, '/');
  const line = passwdRoot.exec(text(probe))?.[0];
  if (!line || passwdRoot.test(text(control))) {
    return null;
  }
  return line;
}

const placeKey = (url: URL) => `${url.origin}${url.pathname}`;

/**
 * Where XML is accepted, as the crawl saw it: POSTs the app sent with an XML body first (their documents
 * are the templates), then same-origin answers that are XML (pages and the app's own calls), each path
 * once, at most `maxPlaces`.
 */
export function xmlPlaces(start: URL, pages: Page[], apiCalls: ApiCall[]): XxePlace[] {
  const places = new Map<string, XxePlace>();
  const add = (place: XxePlace) => {
    if (place.url.origin === start.origin && !places.has(placeKey(place.url))) {
      places.set(placeKey(place.url), place);
    }
  };
  for (const call of apiCalls) {
    const type = call.headers['content-type'] ?? '';
    if (call.method === 'POST' && xmlContentType.test(type) && call.body) {
      add({
        url: call.url,
        why: `the app sends it XML (${type.split(';')[0]!.trim()})`,
        template: call.body,
        contentType: type,
        ...(call.headers.soapaction === undefined ? {} : { soapAction: call.headers.soapaction }),
      });
    }
  }
  const answers = [
    ...apiCalls.map((call) => ({ url: call.url, response: call.response })),
    ...pages.map((page) => ({ url: page.requested ?? page.url, response: page.response })),
  ];
  for (const { url, response } of answers) {
    const type = header(response, 'content-type') ?? '';
    if (response.status < 400 && xmlContentType.test(type) && !isHtml(type, response.body)) {
      add({
        url,
        why: `it answers XML (${type.split(';')[0]!.trim()})`,
        // A SOAP 1.2 service answers, and expects, its own type.
        contentType: /soap/i.test(type) ? 'application/soap+xml' : 'application/xml',
      });
    }
  }
  return [...places.values()].slice(0, xxeLimits.maxPlaces);
}

const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", '#39': "'" };

/**
 * A sample XML document the page shows (an import page's "Sample XML": in <xmp>, or escaped in <pre>,
 * <code> or <textarea>), bounded by `maxTemplate`, or undefined. An upload's probe then has the elements
 * the import reads, as an app's own XML body gives an API's.
 */
export function sampleXml(html: string): string | undefined {
  const text = html.slice(0, 200_000);
  const candidates = [
    ...contentsOf(text, 'xmp'),
    // Escaped in a block: its own tags (a highlighter's spans) dropped, its text unescaped.
    ...contentsOf(text, 'pre|code|textarea')
      .filter((block) => block.includes('&lt;'))
      .map((block) => block.replace(/<[^<>]*>/g, '')),
  ];
  for (const candidate of candidates) {
    const xml = candidate
      .replace(/&(lt|gt|amp|quot|apos|#39);/g, (_, name: string) => entities[name]!)
      .trim();
    if (!xml.startsWith('<') || xml.length > xxeLimits.maxTemplate) {
      continue;
    }
    const root = rootOf(xml.replace(/^<\?xml[\s\S]*?\?>\s*/, ''));
    if (root && xml.endsWith(`</${root}>`)) {
      return xml;
    }
  }
  return undefined;
}

/**
 * The contents of the first 20 elements named by `names` (an alternation), in one pass over a hostile
 * page: each opening tag is read to 500 characters at most, each end found once, a name with no end left
 * at its first miss, and a content longer than a template could be dropped unread.
 */
function contentsOf(text: string, names: string): string[] {
  const open = new RegExp(`<(${names})\\b[^<>]{0,500}>`, 'gi');
  const lower = text.toLowerCase();
  const unended = new Set<string>();
  const out: string[] = [];
  for (let match = open.exec(text); match && out.length < 20; match = open.exec(text)) {
    const name = match[1]!.toLowerCase();
    if (unended.has(name)) {
      continue;
    }
    const start = match.index + match[0].length;
    const end = lower.indexOf(`</${name}>`, start);
    if (end < 0) {
      unended.add(name);
      continue;
    }
    if (end - start <= 4 * xxeLimits.maxTemplate) {
      out.push(text.slice(start, end));
    }
    open.lastIndex = end;
  }
  return out;
}

/** Sign-in and account forms never get a file from us. */
const notUpload = /log-?in|sign-?in|session|password|passwd|avatar|profile-?picture/i;

/** A path whose name says it takes uploads: `/upload`, `/file-upload`, `/api/uploads/`, `/import`. */
const uploadPath = /(?:^|[/_-])(?:file-?)?(?:uploads?|import)(?:[/_.-]|$)/i;

/**
 * POST forms with a file field on the crawled pages, same origin, once each; then up to `maxScriptUploads`
 * upload paths that the site's own scripts name (an app's upload widget posts from script, with no form),
 * sent in the field a page's file input names, else "file". At most `maxPlaces` in all.
 */
export function uploadPlaces(
  start: URL,
  pages: Page[],
  scripts: { url: URL; body: string }[] = [],
): XxePlace[] {
  const places = new Map<string, XxePlace>();
  for (const page of pages) {
    if (!page.facts || !isHtml(header(page.response, 'content-type'), page.response.body)) {
      continue;
    }
    for (const form of detailedForms(page.response.body, page.url)) {
      const file = form.fields.find((f) => f.type === 'file');
      const key = `${placeKey(form.action)} ${file?.name ?? ''}`;
      if (
        !file ||
        form.method !== 'POST' ||
        form.action.origin !== start.origin ||
        form.fields.some((f) => f.type === 'password') ||
        notUpload.test(form.action.pathname) ||
        places.has(key)
      ) {
        continue;
      }
      const sample = sampleXml(page.response.body);
      places.set(key, {
        url: form.action,
        why: `its form on ${placeKey(page.url)} uploads a file in "${file.name}"${sample ? ', in the form of the sample XML the page shows' : ''}`,
        ...(sample ? { template: sample } : {}),
        contentType: 'application/xml',
        upload: { field: file.name, form },
      });
    }
  }
  const field =
    pages
      .map((page) => /<input\b[^>]*\btype=["']?file\b[^>]*>/i.exec(page.response.body.slice(0, 200_000))?.[0])
      .map((input) => (input ? /\bname=["']?([\w.[\]-]{1,60})/i.exec(input)?.[1] : undefined))
      .find(Boolean) ?? 'file';
  const named = scripts
    .filter((script) => script.url.origin === start.origin)
    .flatMap((script) => pathsInScript(script.body, start, 400))
    .filter((url) => uploadPath.test(url.pathname) && !notUpload.test(url.pathname));
  let fromScripts = 0;
  for (const url of named) {
    const key = `${placeKey(url)} ${field}`;
    if (
      fromScripts >= xxeLimits.maxScriptUploads ||
      [...places.values()].some((p) => placeKey(p.url) === placeKey(url))
    ) {
      continue;
    }
    fromScripts++;
    places.set(key, {
      url,
      why: `a script of the site names it as an upload path`,
      contentType: 'application/xml',
      upload: {
        field,
        form: {
          page: start,
          action: url,
          method: 'POST',
          enctype: 'multipart/form-data',
          fields: [{ name: field, type: 'file', value: '' }],
        },
      },
    });
  }
  return [...places.values()].slice(0, xxeLimits.maxPlaces);
}

/**
 * A multipart/form-data body: the form's own fields at their values (text fields "vigil"), and the file, by
 * default as browsers send a .xml file (Chromium's and Firefox's own table), which an import may insist on.
 */
export function multipartBody(
  upload: NonNullable<XxePlace['upload']>,
  fileName: string,
  content: string,
  boundary: string,
  contentType = 'text/xml',
): string {
  const quote = (text: string) => text.replace(/["\r\n\\]/g, '_');
  const parts: string[] = [];
  for (const field of upload.form.fields) {
    if (
      field.type === 'file' ||
      field.type === 'submit' ||
      field.type === 'image' ||
      field.type === 'reset'
    ) {
      continue;
    }
    const value = field.value || (['text', 'textarea', 'search', ''].includes(field.type) ? 'vigil' : '');
    parts.push(`Content-Disposition: form-data; name="${quote(field.name)}"\r\n\r\n${value}`);
  }
  parts.push(
    `Content-Disposition: form-data; name="${quote(upload.field)}"; filename="${quote(fileName)}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n${content}`,
  );
  return `${parts.map((part) => `--${boundary}\r\n${part}\r\n`).join('')}--${boundary}--\r\n`;
}

/**
 * Sends one document to the place (as the body, or as an uploaded file) and returns the answer; an answer
 * that redirects on the same origin (an import that then shows what it stored) is followed with one GET.
 */
async function sendDocument(
  client: HttpClient,
  place: XxePlace,
  document: string,
  token: string,
): Promise<HttpResponse | null> {
  const boundary = `----vigil${token}`;
  const answer = await client.tryRequest(
    place.url,
    place.upload
      ? {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          body: multipartBody(place.upload, `vigil-${token}.xml`, document, boundary),
        }
      : {
          method: 'POST',
          headers: {
            'content-type': place.contentType,
            accept: 'application/xml, text/xml, */*',
            ...(place.soapAction === undefined ? {} : { soapaction: place.soapAction }),
          },
          body: document,
        },
  );
  const location =
    answer && answer.status >= 301 && answer.status <= 303 ? header(answer, 'location') : undefined;
  const next = location && URL.canParse(location, place.url.href) ? new URL(location, place.url) : null;
  if (!answer || !next || next.origin !== place.url.origin) {
    return answer;
  }
  return (await client.tryRequest(next)) ?? answer;
}

/** The finding's location: the method and the place, no query (stable between scans). */
export const xxeLocation = (place: XxePlace) => `POST ${placeKey(place.url)}`;

/**
 * Each place: the external-entity control and probe, then, when that proved nothing, the
 * parameter-entity ones; at most four documents a place (each answer's same-origin redirect followed
 * once), two places at a time. A document that got no answer is sent once more; a place that still
 * answers neither control nor probe is not judged (`onUnjudged`), never called clean.
 */
export async function xxeFindings(
  client: HttpClient,
  places: XxePlace[],
  onProgress: (done: number, total: number) => void,
  signal?: AbortSignal,
  onUnjudged: (location: string, why: string) => void = () => undefined,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  let done = 0;
  const answered = async (place: XxePlace, document: string, token: string) =>
    (await sendDocument(client, place, document, token)) ??
    (signal?.aborted ? null : await sendDocument(client, place, document, token));
  await forEachLimit(
    places.slice(0, xxeLimits.maxPlaces),
    2,
    async (place) => {
      const token = randomBytes(5).toString('hex');
      // An upload in the form of the page's sample is an import: what it parses, it stores.
      for (const document of xxeDocuments(place.template, token, Boolean(place.upload && place.template))) {
        if (signal?.aborted) {
          break;
        }
        // The control first: where the app stores what it parses and shows it afterwards, the probe's
        // file must not be what the control's answer shows.
        const control = await answered(place, document.control, token);
        const probe = control ? await answered(place, document.probe, token) : null;
        if (!control || !probe) {
          onUnjudged(xxeLocation(place), `the ${control ? 'probe' : 'control'} got no answer, twice`);
          break;
        }
        const line = judgeXxe(probe, control);
        if (line && probe) {
          const how = place.upload
            ? `an uploaded file vigil-${token}.xml in "${place.upload.field}" (multipart; the target may keep it: intrusive checks are allowed for this target)`
            : `an XML body (Content-Type ${place.contentType.split(';')[0]!.trim()})`;
          findings.push(
            webappFinding('web.xxe', {
              location: xxeLocation(place),
              evidence: `POST ${place.url.href} (${place.why}) with ${how}: the ${document.variant} declared as ${probedFile} brought "${line}" into the answer (HTTP ${probe.status}${probe.url === place.url.href ? '' : ` at ${probe.url}`}); the same document with a harmless internal entity did not`,
            }),
          );
          break;
        }
      }
      onProgress(++done, places.length);
    },
    signal ?? client.signal,
  );
  return findings;
}

/** The partial scan's words for places the XXE check could not judge (five named at most). */
export function xxeUnjudgedNote(unjudged: readonly string[]): string {
  const more = unjudged.length > 5 ? `; and ${unjudged.length - 5} more` : '';
  return `XXE not judged at ${unjudged.length} place(s): ${unjudged.slice(0, 5).join('; ')}${more}`;
}
