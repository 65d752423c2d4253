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
  credentials: { field: string; length: number }[];
}

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
    } else if (credentialKeys.has(k) && typeof item === 'string' && item.length >= 8) {
      record.credentials.push({ field, length: item.length });
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
