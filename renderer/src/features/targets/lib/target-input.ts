// Validation of a new scan target (the database checks the same shapes again): web and API targets are
// http(s) URLs, host targets a bare host name or IP address; the OpenAPI document URL is optional.
import * as z from 'zod/mini';

export type TargetKind = 'url' | 'host' | 'api';

export interface TargetInput {
  kind: TargetKind;
  value: string;
  openapiUrl?: string;
}

export type ParsedTarget =
  | { ok: true; value: { kind: TargetKind; value: string; openapi_url: string | null } }
  | { ok: false; errors: Partial<Record<'value' | 'openapiUrl', string>> };

const httpUrl = z.string().check(
  z.refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && Boolean(u.hostname) && !/\s/.test(v);
    } catch {
      return false;
    }
  }),
);
// Letters, digits, dots, hyphens (names and IPv4), or a bracket-free IPv6 address.
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|[0-9a-f:]+)$/i;

export function parseTargetInput(input: TargetInput): ParsedTarget {
  const value = input.value.trim();
  const openapi = input.openapiUrl?.trim() ?? '';
  const errors: Partial<Record<'value' | 'openapiUrl', string>> = {};
  if (!value) {
    errors.value = input.kind === 'host' ? 'Enter a host name or IP address.' : 'Enter a URL.';
  } else if (
    input.kind === 'host' ? !HOST.test(value) || value.length > 253 : !httpUrl.safeParse(value).success
  ) {
    errors.value =
      input.kind === 'host'
        ? 'Enter a host name or IP address, without http:// or a path.'
        : 'Enter a full URL starting with http:// or https://.';
  }
  if (input.kind === 'api' && openapi && !httpUrl.safeParse(openapi).success) {
    errors.openapiUrl = 'Enter the OpenAPI document URL starting with http:// or https://.';
  }
  if (errors.value || errors.openapiUrl) {
    return { ok: false, errors };
  }
  // A URL target is stored as its origin plus path without a trailing slash, so one site is one target.
  const normalised = input.kind === 'host' ? value.toLowerCase() : value.replace(/\/+$/, '');
  return {
    ok: true,
    value: {
      kind: input.kind,
      value: normalised,
      openapi_url: input.kind === 'api' && openapi ? openapi : null,
    },
  };
}

/** Where the verification token goes for a target: the well-known file on its origin, or a DNS TXT record. */
export function verificationInstructions(
  kind: TargetKind,
  value: string,
  token: string,
): { httpUrl: string | null; dnsName: string; txt: string } {
  let host = value;
  let origin: string | null = null;
  if (kind !== 'host') {
    try {
      const u = new URL(value);
      host = u.hostname;
      origin = u.origin;
    } catch {
      origin = null;
    }
  }
  return {
    httpUrl: `${origin ?? `http://${host}`}/.well-known/vigil-verification.txt`,
    dnsName: host,
    txt: `vigil-verification=${token}`,
  };
}
