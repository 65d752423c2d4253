// Mass assignment at registration, proven on accounts the check itself makes. At each registration form
// or JSON endpoint found (a POST with a password, at a sign-up path; never a login, a reset or a profile of
// an existing account) it signs up two marker accounts without any session: a control with the fields the
// page asks for, then one with privileged fields added (role "admin", isAdmin, is_admin, admin). The
// finding needs the privileged value to have been kept, not merely echoed: either the control's answer
// shows the server's own value for that field (say role "customer") while ours shows "admin", or the
// account read back at its URL afterwards shows it. The accounts are deleted where the app lets an
// anonymous client delete them; otherwise the evidence names them for removal by hand.
import { randomBytes } from 'node:crypto';

import { decodeJwt } from 'jose';

import type { Finding } from '../../../../shared/findings.ts';
import type { RequestInit } from '../../core/http-client.ts';
import { webappFinding } from '../rules.ts';
import { fillValue, formBody } from './forms.ts';
import type { DetailedForm } from './forms.ts';
import { jsonBody, newMarker, objectWith, recordUrl, succeeded, writeLimits } from './marker.ts';
import type { JsonObject } from './marker.ts';
import { formsOf, jsonRegistrations, registrationForms } from './places.ts';
import type { WriteInput } from './places.ts';
import { removeRecord } from './stored-xss.ts';

/** The privileged fields added to the second sign-up. */
export const privilegedExtras: Readonly<JsonObject> = {
  role: 'admin',
  isAdmin: true,
  is_admin: true,
  admin: true,
};

const passwordKey = /pass(word)?|pwd/i;

/** Whether `value` of `key` is the privileged value we sent. */
const isPrivileged = (key: string, value: unknown) =>
  key === 'role'
    ? typeof value === 'string' && /^(admin|administrator)$/i.test(value)
    : value === true || value === 'true' || value === 1 || value === '1';

/**
 * The privileged fields an account (the object of a JSON answer that holds its marker) shows as we sent
 * them, and the value the control account shows for each: the server's own when present.
 */
export function keptPrivileges(
  account: JsonObject | null,
  control: JsonObject | null,
): { field: string; value: unknown; controlValue?: unknown }[] {
  if (!account) {
    return [];
  }
  return Object.keys(privilegedExtras)
    .filter((field) => isPrivileged(field, account[field]))
    .map((field) => ({
      field,
      value: account[field],
      ...(control && field in control ? { controlValue: control[field] } : {}),
    }));
}

const jwtShape = /^[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*$/;

/** The payloads of the JWTs among an answer's string values (a sign-up often answers with a token). */
function tokenClaims(body: unknown, depth = 0): JsonObject[] {
  if (depth > 3 || typeof body !== 'object' || body === null) {
    return typeof body === 'string' && jwtShape.test(body) ? decoded(body) : [];
  }
  return Object.values(body as JsonObject)
    .slice(0, 50)
    .flatMap((value) => tokenClaims(value, depth + 1));
}

function decoded(token: string): JsonObject[] {
  try {
    return [decodeJwt(token)];
  } catch {
    return [];
  }
}

/**
 * The account `marker` signed up, as the answer shows it: the object of the JSON that holds the marker,
 * or the claims of a token the answer carries (read, not verified: what the app put in it is the question).
 */
export function accountIn(body: unknown, marker: string): JsonObject | null {
  return objectWith(body, marker) ?? objectWith(tokenClaims(body), marker);
}

interface Place {
  url: URL;
  how: string;
  /** The request signing up `marker` with `password`, privileged fields added or not. */
  request(marker: string, password: string, extras: boolean): RequestInit;
}

function formPlace(form: DetailedForm): Place {
  return {
    url: form.action,
    how: `POST ${form.action.pathname} (form on ${form.page.pathname})`,
    request(marker, password, extras) {
      const values = form.fields.map((field): [string, string] => [
        field.name,
        field.type === 'password'
          ? password
          : fillValue(field, marker, () => marker).slice(0, writeLimits.maxValueChars),
      ]);
      const added = extras
        ? Object.entries(privilegedExtras).map(([k, v]): [string, string] => [k, String(v)])
        : [];
      return {
        method: 'POST',
        body: formBody([...values.filter(([k]) => !(k in privilegedExtras)), ...added]),
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      };
    },
  };
}

function jsonPlace(url: URL, sample: JsonObject): Place {
  return {
    url,
    how: `POST ${url.pathname} (JSON)`,
    request(marker, password, extras) {
      const body: JsonObject = {};
      for (const [key, value] of Object.entries(sample).slice(0, writeLimits.maxFields)) {
        if (key in privilegedExtras) {
          continue;
        }
        body[key] = passwordKey.test(key)
          ? password
          : /e-?mail/i.test(key)
            ? `${marker}@example.com`
            : typeof value === 'string'
              ? marker
              : value;
      }
      return {
        method: 'POST',
        body: JSON.stringify(extras ? { ...body, ...privilegedExtras } : body),
        headers: { 'content-type': 'application/json', accept: 'application/json' },
      };
    },
  };
}

const password = () => `Vg-${randomBytes(9).toString('base64url')}-7a!`;

async function signUpTwice(input: WriteInput, place: Place): Promise<Finding | null> {
  const { client } = input;
  const control = newMarker();
  const ours = newMarker();
  // Without any session: a registration is what a stranger can do.
  const controlAnswer = await client.tryRequest(place.url, {
    ...place.request(control, password(), false),
    anonymous: true,
  });
  const answer = await client.tryRequest(place.url, {
    ...place.request(ours, password(), true),
    anonymous: true,
  });
  if (!succeeded(answer)) {
    return null;
  }
  const controlAccount = accountIn(jsonBody(controlAnswer), control);
  const answered = keptPrivileges(accountIn(jsonBody(answer), ours), controlAccount);
  // The server's own value differs from ours in the control's answer: ours was kept, not echoed.
  let proof = answered.filter((k) => 'controlValue' in k && !isPrivileged(k.field, k.controlValue));
  let how = proof
    .map(
      (k) =>
        `${k.field}: ${JSON.stringify(k.value)} in the answer (the control account got ${JSON.stringify(k.controlValue)})`,
    )
    .join(', ');
  const item = recordUrl(place.url, answer, ours);
  if (proof.length === 0 && item) {
    const read = await client.tryRequest(item, { anonymous: true });
    proof = keptPrivileges(read?.status === 200 ? objectWith(jsonBody(read), ours) : null, null);
    how = proof.map((k) => `${k.field}: ${JSON.stringify(k.value)} read back at ${item.pathname}`).join(', ');
  }
  // Both accounts are ours: removed where the app lets an anonymous client, whatever was found.
  const cleanup = [
    await removeRecord(input, item, ours),
    ...(succeeded(controlAnswer)
      ? [await removeRecord(input, recordUrl(place.url, controlAnswer, control), control)]
      : []),
  ];
  if (proof.length === 0) {
    return null;
  }
  return webappFinding('web.auth.mass-assignment', {
    location: place.url.href,
    evidence: `${place.how} signed up ${ours} with ${Object.keys(privilegedExtras).join(', ')} added (HTTP ${answer.status}); kept: ${how}; cleanup: ${cleanup.join('; ')}`,
  });
}

export async function massAssignmentFindings(
  input: WriteInput,
  tick: (done: number, total: number) => void,
): Promise<Finding[]> {
  const places: Place[] = [
    ...registrationForms(formsOf(input.pages), input.start).map(formPlace),
    ...(await jsonRegistrations(input)).map((endpoint) => jsonPlace(endpoint.url, endpoint.json ?? {})),
  ];
  const seen = new Set<string>();
  const unique = places
    .filter((p) => !seen.has(p.url.href) && seen.add(p.url.href))
    .slice(0, writeLimits.maxRegistrations);
  const findings: Finding[] = [];
  let done = 0;
  for (const place of unique) {
    if (input.signal?.aborted) {
      break;
    }
    const finding = await signUpTwice(input, place);
    if (finding) {
      findings.push(finding);
    }
    tick(++done, unique.length);
  }
  return findings;
}
