// Whether an API answer carries a person's data, and whose: what makes a missing access check matter.
const emailPattern = /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}/g;
const personalKeys =
  /^(e-?mail|phone|mobile|address|street|birth_?date|date_?of_?birth|ssn|iban|card_?number|password(_?hash)?|token|api_?key)$/i;

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The personal-data keys found anywhere in a JSON value (at most a few levels and items deep). */
export function personalFields(value: unknown, depth = 0, found = new Set<string>()): Set<string> {
  if (depth > 4 || value === null || typeof value !== 'object') {
    return found;
  }
  const entries = Array.isArray(value)
    ? value.slice(0, 20).map((v) => ['', v] as const)
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (key && personalKeys.test(key) && child !== null && child !== '') {
      found.add(key);
    }
    personalFields(child, depth + 1, found);
  }
  return found;
}

export function emailsIn(text: string): string[] {
  return [...new Set(text.match(emailPattern) ?? [])];
}
