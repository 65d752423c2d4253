// JavaScript of the form exercise (form-exercise.ts), run in the rendered page. A "form" is a <form>, or,
// in apps that draw forms without one (Angular Material, React), the visible fields around one submit-like
// button. Fields get harmless typed values through the native setter plus input/change events, as typing
// would; dropdowns drawn without a field get their first option; the form is sent with its submit button,
// else requestSubmit(), else Enter in its last field.

/** Shared by both scripts: finding the page's forms, in document order, with their risk. */
const findForms = `
  const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length) &&
    getComputedStyle(el).visibility !== 'hidden';
  const visible = (el) => shown(el) && !el.disabled && !el.readOnly;
  const label = (el) => [el.textContent, el.value, el.getAttribute('aria-label'), el.id, el.name, el.title]
    .filter((v) => typeof v === 'string').join(' ').replace(/\\s+/g, ' ').trim().slice(0, 80);
  const fieldSelector = 'input:not([type]), input[type="text"], input[type="email"], input[type="password"], ' +
    'input[type="search"], input[type="tel"], input[type="number"], input[type="url"], textarea, select';
  const submitLike = /\\b(log ?in|sign ?in|sign ?up|register|submit|send|search|find|go|save|create|continue|next|subscribe|post|apply|ok)\\b/i;
  const fields = [...document.querySelectorAll(fieldSelector)].filter(visible);
  const groups = new Map();
  for (const field of fields) {
    let box = field.form || null;
    let button = null;
    if (!box) {
      for (let up = field.parentElement, depth = 0; up && up !== document.body && depth < 8; up = up.parentElement, depth++) {
        const buttons = [...up.querySelectorAll('button, input[type="submit"], [role="button"]')].filter(shown);
        // A declared submit button first (it may be disabled until the fields are filled), then one whose
        // label reads like sending (not a "log in with another site" button after it).
        button = buttons.find((b) => b.getAttribute('type') === 'submit') || buttons.find((b) => submitLike.test(label(b)));
        if (button) { box = up; break; }
      }
    } else {
      button = [...box.querySelectorAll('button[type="submit"], input[type="submit"], button:not([type])')].find(shown) || null;
    }
    const key = box || field;
    if (!groups.has(key)) { groups.set(key, { box: key, button, fields: [] }); }
    groups.get(key).fields.push(field);
  }
  const forms = [...groups.values()].map((g) => {
    const names = g.fields.map((f) => f.name || f.id || f.getAttribute('aria-label') || f.type || 'field');
    const action = g.box instanceof HTMLFormElement ? (g.box.getAttribute('action') || '') : '';
    const words = [action, g.button ? label(g.button) : '', g.box.id || '', g.box.getAttribute('name') || ''].join(' ');
    const keys = g.fields.flatMap((f) => [f.name, f.id].filter(Boolean));
    return { ...g, names, keys, action, words, button: g.button };
  });`;

export interface FormFound {
  /** The fields' names (name, id, aria-label or type), in document order. */
  names: string[];
  /** Every name and id of its fields (what a configured login names its fields by). */
  keys: string[];
  /** The form's action attribute, its button's label, its id and name: what the safety rules read. */
  words: string;
  password: boolean;
}

/** Lists the page's forms (what `fillScript` numbers). */
export const listFormsScript = `(() => {${findForms}
  return forms.map((f) => ({ names: f.names, keys: f.keys, words: f.words, password: f.fields.some((x) => x.type === 'password') }));
})()`;

/** Fills and sends the `index`-th form of the page. Answers how it was sent, or null when it was not. */
export function fillScript(index: number, values: Record<string, string>): string {
  return `(async () => {${findForms}
  const form = forms[${index}];
  if (!form) { return null; }
  const values = ${JSON.stringify(values)};
  const kind = (f) => {
    const hint = [f.name, f.id, f.getAttribute('autocomplete'), f.getAttribute('aria-label'), f.placeholder].join(' ');
    if (f.type === 'password') { return 'password'; }
    if (f.type === 'email' || /mail/i.test(hint)) { return 'email'; }
    if (['number', 'tel', 'url'].includes(f.type)) { return f.type; }
    return 'text';
  };
  for (const f of form.fields) {
    if (f instanceof HTMLSelectElement) {
      const option = [...f.options].find((o) => o.value !== '' && !o.disabled);
      if (option) { f.value = option.value; }
    } else {
      const proto = f instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
      Object.getOwnPropertyDescriptor(proto, 'value').set.call(f, values[kind(f)]);
      f.dispatchEvent(new Event('input', { bubbles: true }));
    }
    f.dispatchEvent(new Event('change', { bubbles: true }));
  }
  // Dropdowns drawn by component libraries (Angular Material's mat-select, MUI's Select) have no field:
  // opened with a click where a person would click (their trigger inside), the first option of the list
  // they show (often in an overlay outside the form) is picked; with none, the list is closed again.
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const combos = [...form.box.querySelectorAll('[role="combobox"], [aria-haspopup="listbox"]')].filter((c) =>
    shown(c) && !(c instanceof HTMLInputElement) && !(c instanceof HTMLSelectElement) &&
    c.getAttribute('aria-disabled') !== 'true');
  const options = () => [...document.querySelectorAll('[role="option"]')].filter((o) =>
    shown(o) && o.getAttribute('aria-disabled') !== 'true');
  for (const combo of combos.slice(0, 5)) {
    // Its own list: the one it names (aria-controls, aria-owns), else options that were not shown before.
    const before = new Set(options());
    const named = () => (combo.getAttribute('aria-controls') || combo.getAttribute('aria-owns') || '')
      .split(' ').filter(Boolean).map((id) => document.getElementById(id)).filter(Boolean);
    combo.scrollIntoView({ block: 'center' });
    const box = combo.getBoundingClientRect();
    const at = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    (at && combo.contains(at) ? at : combo).click();
    let option = null;
    for (let i = 0; i < 10 && !option; i++) {
      await pause(50);
      const lists = named();
      option = options().find((o) => lists.length > 0 ? lists.some((list) => list.contains(o)) : !before.has(o));
    }
    if (option) { option.click(); } else {
      combo.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', code: 'Escape', keyCode: 27, bubbles: true }));
    }
    await pause(50);
  }
  // Frameworks enable the submit button once they have seen the input (after their change detection).
  await pause(150);
  if (form.button && form.button.disabled) { return null; }
  if (form.button) { form.button.click(); return 'clicked ' + label(form.button); }
  if (form.box instanceof HTMLFormElement) { form.box.requestSubmit(); return 'submitted'; }
  const last = form.fields[form.fields.length - 1];
  for (const type of ['keydown', 'keypress', 'keyup']) {
    last.dispatchEvent(new KeyboardEvent(type, { key: 'Enter', code: 'Enter', keyCode: 13, which: 13, bubbles: true }));
  }
  return 'pressed Enter';
})()`;
}
