// Text a target sent, made inert before it is stored: control characters (C0, DEL, C1: terminal escape
// sequences, bells, carriage returns that overwrite a line) and the invisible format characters that
// reorder or hide text (bidirectional overrides, zero-width marks) become a space. Other Unicode stays,
// so names in other scripts read as they were sent.
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const unsafe = /[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+/g;

export function inertText(text: string): string {
  return text.replace(unsafe, ' ');
}
