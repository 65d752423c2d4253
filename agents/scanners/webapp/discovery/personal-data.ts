// Personal data in an API answer fetched without credentials: records that name a person (an e-mail
// address or a user name) together with a credential (password or hash, API or session token), or two
// or more people's e-mail addresses with their account roles. A single contact address, a CSRF token or
// an anonymous session is not reported. Evidence is redacted: e-mail addresses keep their first letter
// and domain, credentials only their field name and length.
const email = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
const key = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');
const usernameKeys = new Set(['username', 'login', 'user', 'userid', 'handle']);
const credentialKeys = new Set([
  'password',
  'passwd',
  'pwd',
  'passwordhash',
  'passworddigest',
  'secret',
  'apikey',
  'apitoken',
  'accesstoken',
  'refreshtoken',
  'authtoken',
  'sessiontoken',
  'sessionid',
  'token',
  'jwt',
  'privatekey',
]);
const roleKeys = new Set([
  'role',
  'roles',
  'isadmin',
  'admin',
  'permissions',
  'permission',
  'groups',
  'isstaff',
  'issuperuser',
  'usertype',
  'accounttype',
  'scopes',
]);

/** A role as shown in evidence: a name, a list of names, or a set flag; null for anything else. */
function roleValue(item: unknown): string | null {
  if (typeof item === 'string' && item !== '') {
    return item;
  }
  if (item === true) {
    return 'true';
  }
  if (Array.isArray(item) && item.length > 0 && item.every((i) => typeof i === 'string')) {
    return item.join('+');
  }
  return null;
}

interface PersonRecord {
  emails: string[];
  named: boolean;
  roles: string[];
  credentials: { field: string; length: number; format: string | null }[];
}

/** Fields that hold an account's password, plain or hashed. */
const passwordKeys = new Set([
  'password',
  'passwd',
  'pwd',
  'passwordhash',
  'passworddigest',
  'hashedpassword',
  'encryptedpassword',
  'passhash',
]);

/** A stored password's format, as its shape shows it; null for anything else (plain text, perhaps). */
export function hashFormat(value: string): string | null {
  const formats: [string, RegExp][] = [
    ['bcrypt', /^\$2[abxy]?\$\d{2}\$[./A-Za-z0-9]{53}$/],
    ['Argon2', /^\$argon2(?:id|i|d)\$/],
    ['scrypt', /^\$(?:scrypt|7)\$/],
    ['PBKDF2', /^(?:\$pbkdf2|pbkdf2[_:])/i],
    ['SHA-crypt', /^\$[56]\$/],
    ['MD5-crypt', /^\$(?:1|apr1)\$/],
    ['LDAP', /^\{(?:SSHA|SHA|SMD5|MD5|CRYPT|PBKDF2[\w-]*)\}/i],
    ['MD5 (hex)', /^[a-f0-9]{32}$/i],
    ['SHA-1 (hex)', /^[a-f0-9]{40}$/i],
    ['SHA-256 (hex)', /^[a-f0-9]{64}$/i],
    ['SHA-512 (hex)', /^[a-f0-9]{128}$/i],
  ];
  return formats.find(([, pattern]) => pattern.test(value))?.[0] ?? null;
}

/** A value that stands in for a password rather than being one: masked, redacted, a placeholder. */
const placeholder = (value: string) =>
  /\s/.test(value) ||
  /^[*•x.#-]+$/i.test(value) ||
  /^[[<({]?(?:redacted|filtered|hidden|masked|secret|null|undefined)[\]>)}]?$/i.test(value);

function records(value: unknown, out: PersonRecord[], budget = { nodes: 2000 }): PersonRecord[] {
  if (budget.nodes-- <= 0 || value === null || typeof value !== 'object') {
    return out;
  }
  if (Array.isArray(value)) {
    value.forEach((item) => records(item, out, budget));
    return out;
  }
  const record: PersonRecord = { emails: [], named: false, roles: [], credentials: [] };
  for (const [field, item] of Object.entries(value)) {
    const k = key(field);
    if (typeof item === 'string' && email.test(item)) {
      record.emails.push(item);
    } else if (typeof item === 'string' && usernameKeys.has(k) && item !== '') {
      record.named = true;
    } else if (
      (credentialKeys.has(k) || passwordKeys.has(k)) &&
      typeof item === 'string' &&
      item.length >= 8 &&
      !(passwordKeys.has(k) && placeholder(item))
    ) {
      record.credentials.push({ field, length: item.length, format: hashFormat(item) });
    } else if (roleKeys.has(k) && roleValue(item)) {
      record.roles.push(roleValue(item)!);
    } else {
      records(item, out, budget);
    }
  }
  if (record.emails.length > 0 || record.named) {
    out.push(record);
  }
  return out;
}

export function redactEmail(address: string): string {
  const [local = '', domain = ''] = address.split('@');
  return `${local.slice(0, 1)}…@${domain}`;
}

const list = (items: string[], max = 3) =>
  `${items.slice(0, max).join(', ')}${items.length > max ? `, +${items.length - max} more` : ''}`;

/** The redacted evidence when `json` gives away personal data, with whether credentials are among it; else null. */
export function personalData(json: unknown): { evidence: string; credentials: boolean } | null {
  const people = records(json, []);
  const withCredentials = people.filter((p) => p.credentials.length > 0);
  const withRoles = people.filter((p) => p.emails.length > 0 && p.roles.length > 0);
  if (withCredentials.length === 0 && withRoles.length < 2) {
    return null;
  }
  const emails = [...new Set(people.flatMap((p) => p.emails))];
  const roles = [...new Set(people.flatMap((p) => p.roles.map((r) => r.slice(0, 20))))];
  const fields = new Map<string, number[]>();
  for (const { field, length } of people.flatMap((p) => p.credentials)) {
    fields.set(field, [...(fields.get(field) ?? []), length]);
  }
  const parts = [
    `${people.length} account record${people.length === 1 ? '' : 's'} without authentication`,
    emails.length ? `e-mail addresses (${list(emails.map(redactEmail))})` : '',
    roles.length ? `roles (${list(roles, 5)})` : '',
    ...[...fields].map(
      ([field, lengths]) =>
        `${field} (${lengths.length} value${lengths.length === 1 ? '' : 's'} of ${Math.max(...lengths)} characters, not shown)`,
    ),
  ];
  return { evidence: parts.filter(Boolean).join('; '), credentials: withCredentials.length > 0 };
}

/**
 * Accounts' passwords or password hashes in a JSON answer: records that name a person and carry a password
 * field whose value is one (no placeholder, no masked value). Redacted: the field, the count and the formats
 * the values' shapes show (bcrypt, MD5 hex…), never a value. Null when there are none.
 */
export function passwordsIn(json: unknown): { evidence: string; accounts: number } | null {
  const held = records(json, [])
    .map((person) => person.credentials.filter((c) => passwordKeys.has(key(c.field))))
    .filter((credentials) => credentials.length > 0);
  if (held.length === 0) {
    return null;
  }
  const all = held.flat();
  const fields = [...new Set(all.map((c) => c.field))];
  const formats = new Map<string, number>();
  for (const { format } of all) {
    const name = format ?? 'not a known hash format (plain text?)';
    formats.set(name, (formats.get(name) ?? 0) + 1);
  }
  const shapes = [...formats].map(([name, count]) => `${count} ${name}`).join(', ');
  return {
    evidence: `${held.length} account record${held.length === 1 ? '' : 's'} with ${list(fields)} (${shapes}; values not shown)`,
    accounts: held.length,
  };
}
