// What the scanners need from an HTML page: links, forms, scripts, sub-resources and meta tags.
import { Parser } from 'htmlparser2';

export interface HtmlForm {
  action: URL;
  method: 'GET' | 'POST';
  fields: string[];
  /** The fields of type password (a login or a sign-up form has one). */
  passwords?: string[];
  /** Hidden fields with their values as the page sent them (a CSRF token among them). */
  hidden?: Record<string, string>;
}

export interface ScriptRef {
  /** Absolute URL of an external script, or null for an inline script. */
  src: URL | null;
  inline: string;
}

export interface HtmlFacts {
  links: URL[];
  forms: HtmlForm[];
  scripts: ScriptRef[];
  /** Absolute URLs the page loads as sub-resources (scripts, styles, images, frames, media). */
  resources: URL[];
  generator: string | null;
}

const resourceAttributes: Record<string, string> = {
  script: 'src',
  img: 'src',
  iframe: 'src',
  frame: 'src',
  audio: 'src',
  video: 'src',
  source: 'src',
  embed: 'src',
  object: 'data',
};

function resolve(value: string | undefined, base: URL): URL | null {
  if (!value) {
    return null;
  }
  try {
    const url = new URL(value.trim(), base);
    url.hash = '';
    return url;
  } catch {
    // Guard: malformed attributes are common on real pages; skip them rather than fail the page.
    return null;
  }
}

export function parseHtml(html: string, pageUrl: URL): HtmlFacts {
  const facts: HtmlFacts = { links: [], forms: [], scripts: [], resources: [], generator: null };
  let form: HtmlForm | null = null;
  let inScript: { src: URL | null; text: string } | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'a' || name === 'area') {
          const url = resolve(attrs.href, pageUrl);
          if (url) {
            facts.links.push(url);
          }
        }
        if (name === 'link') {
          const url = resolve(attrs.href, pageUrl);
          if (url && /stylesheet|icon|preload/i.test(attrs.rel ?? '')) {
            facts.resources.push(url);
          }
        }
        if (name === 'meta' && (attrs.name ?? '').toLowerCase() === 'generator' && attrs.content) {
          facts.generator = attrs.content;
        }
        if (name === 'form') {
          form = {
            action: resolve(attrs.action || pageUrl.href, pageUrl) ?? pageUrl,
            method: (attrs.method ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET',
            fields: [],
          };
          facts.forms.push(form);
        }
        if ((name === 'input' || name === 'textarea' || name === 'select') && form && attrs.name) {
          form.fields.push(attrs.name);
          const type = name === 'input' ? (attrs.type ?? 'text').toLowerCase() : '';
          if (type === 'password') {
            (form.passwords ??= []).push(attrs.name);
          } else if (type === 'hidden' && Object.keys(form.hidden ?? {}).length < 20) {
            (form.hidden ??= {})[attrs.name] = (attrs.value ?? '').slice(0, 500);
          }
        }
        const attribute = resourceAttributes[name];
        if (attribute) {
          const url = resolve(attrs[attribute], pageUrl);
          if (url) {
            facts.resources.push(url);
          }
        }
        if (name === 'script') {
          inScript = { src: resolve(attrs.src, pageUrl), text: '' };
        }
      },
      ontext(text) {
        if (inScript) {
          inScript.text += text;
        }
      },
      onclosetag(name) {
        if (name === 'form') {
          form = null;
        }
        if (name === 'script' && inScript) {
          facts.scripts.push({ src: inScript.src, inline: inScript.src ? '' : inScript.text });
          inScript = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return facts;
}

export function isHtml(contentType: string | undefined, body: string): boolean {
  return (
    /text\/html|application\/xhtml/i.test(contentType ?? '') || (!contentType && /<html[\s>]/i.test(body))
  );
}
