// The texts of one element (by local name, any namespace prefix) in an XML document, and the root
// element's local name: enough to read sitemaps (<loc>) and WebDAV multistatus answers (<D:href>).
import { Parser } from 'htmlparser2';

const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

export function xmlElementTexts(xml: string, element: string): { texts: string[]; root: string | null } {
  const texts: string[] = [];
  let root: string | null = null;
  let text: string | null = null;
  const parser = new Parser(
    {
      onopentag(name) {
        root ??= localName(name);
        text = localName(name) === element ? '' : text;
      },
      ontext(chunk) {
        if (text !== null) {
          text += chunk;
        }
      },
      onclosetag(name) {
        if (localName(name) === element && text !== null) {
          if (text.trim()) {
            texts.push(text.trim());
          }
          text = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return { texts, root };
}
