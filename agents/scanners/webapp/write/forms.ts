// The forms of a page as the write checks need them: each field's name, type and the value the page
// gives it (hidden fields such as CSRF tokens keep theirs), and the values the checks fill in. html.ts
// keeps only field names, which is all the read-only probes need.
import { Parser } from 'htmlparser2';

export interface FormField {
  name: string;
  /** input type (lowercase; "text" when absent), or "textarea" / "select". */
  type: string;
  /** The value the page sets (the first option of a select). */
  value: string;
}

export interface DetailedForm {
  /** The page the form is on. */
  page: URL;
  action: URL;
  method: 'GET' | 'POST';
  enctype: string;
  fields: FormField[];
}

export function detailedForms(html: string, page: URL): DetailedForm[] {
  const forms: DetailedForm[] = [];
  let form: DetailedForm | null = null;
  let select: FormField | null = null;
  let textarea: FormField | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'form') {
          let action = page;
          try {
            action = new URL(attrs.action || page.href, page);
          } catch {
            // Guard: a malformed action is common on real pages: the form posts to its own page.
          }
          action.hash = '';
          form = {
            page,
            action,
            method: (attrs.method ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET',
            enctype: (attrs.enctype ?? 'application/x-www-form-urlencoded').toLowerCase(),
            fields: [],
          };
          forms.push(form);
        }
        if (!form || !attrs.name) {
          if (name === 'option' && select && select.value === '' && attrs.value !== undefined) {
            select.value = attrs.value;
          }
          return;
        }
        if (name === 'input' || name === 'button') {
          const type = (attrs.type ?? (name === 'button' ? 'submit' : 'text')).toLowerCase();
          if (!['checkbox', 'radio'].includes(type) || attrs.checked !== undefined) {
            form.fields.push({
              name: attrs.name,
              type,
              value: attrs.value ?? (type === 'checkbox' ? 'on' : ''),
            });
          }
        } else if (name === 'textarea') {
          textarea = { name: attrs.name, type: 'textarea', value: '' };
          form.fields.push(textarea);
        } else if (name === 'select') {
          select = { name: attrs.name, type: 'select', value: '' };
          form.fields.push(select);
        }
      },
      ontext(text) {
        if (textarea) {
          textarea.value += text;
        }
      },
      onclosetag(name) {
        if (name === 'form') {
          form = null;
        } else if (name === 'select') {
          select = null;
        } else if (name === 'textarea') {
          textarea = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return forms;
}

/** Fields that keep the page's value: tokens, ids and choices the app set. */
const keepsValue = (field: FormField) =>
  ['hidden', 'select', 'checkbox', 'radio', 'submit'].includes(field.type) ||
  /csrf|xsrf|token|nonce|authenticity/i.test(field.name);

/**
 * A value for a field that the app will accept: an address for an e-mail field, a URL for a URL field,
 * a number for a number, the marker text elsewhere. `text(field)` gives the text fields' value.
 */
export function fillValue(field: FormField, marker: string, text: (field: FormField) => string): string {
  if (keepsValue(field)) {
    return field.value;
  }
  if (field.type === 'email' || /e-?mail/i.test(field.name)) {
    return `${marker}@example.com`;
  }
  if (field.type === 'url' || /url|website|homepage/i.test(field.name)) {
    return `https://example.com/${marker}`;
  }
  if (
    ['number', 'range'].includes(field.type) ||
    /^(age|qty|quantity|rating|stars|score)$/i.test(field.name)
  ) {
    return '5';
  }
  if (field.type === 'tel' || /phone|tel/i.test(field.name)) {
    return '5550100';
  }
  if (['date', 'datetime-local', 'month', 'week', 'time', 'color', 'file'].includes(field.type)) {
    return field.value;
  }
  return text(field);
}

/** Whether the field takes free text (where the stored-XSS payload goes). */
export const takesText = (field: FormField): boolean =>
  ['text', 'textarea', 'search', ''].includes(field.type) &&
  !keepsValue(field) &&
  !/e-?mail|url|website|homepage|phone|tel/i.test(field.name);

export const formBody = (values: [string, string][]): string => new URLSearchParams(values).toString();
