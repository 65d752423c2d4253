// Session tokens the app keeps in web storage (localStorage, sessionStorage), where any script running on
// the site, an injected one included, can read them. Only a signed token (a JSON Web Token with claims) or
// a value the app sends as its Authorization header counts; the token itself never reaches the evidence.
import type { Finding } from '../../../../shared/findings.ts';
import type { ApiCall } from '../browser/api-calls.ts';
import type { StorageItem } from '../browser/crawl.ts';
import { webappFinding } from '../rules.ts';

const jwtPattern = /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/;

function claimsOf(token: string): Record<string, unknown> | null {
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return claims && typeof claims === 'object' && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function storageFindings(origin: string, storage: StorageItem[], calls: ApiCall[]): Finding[] {
  const sentTokens = new Set(
    calls
      .map((c) => /^Bearer\s+(\S+)$/i.exec(c.headers.authorization ?? '')?.[1])
      .filter((t): t is string => Boolean(t)),
  );
  const hits: string[] = [];
  for (const item of [...storage].sort((a, b) => `${a.area}:${a.key}`.localeCompare(`${b.area}:${b.key}`))) {
    const token = jwtPattern.exec(item.value)?.[0];
    const claims = token ? claimsOf(token) : null;
    const where = `${item.area}Storage["${item.key}"]`;
    if (token && claims && (sentTokens.has(token) || 'exp' in claims || 'sub' in claims)) {
      const named = ['sub', 'email', 'role', 'exp'].filter((k) => k in claims);
      hits.push(
        `${where} holds a JSON Web Token (claims: ${named.join(', ') || Object.keys(claims).slice(0, 4).join(', ')})${sentTokens.has(token) ? ' that the app sends as its Authorization header' : ''}`,
      );
    } else if ([...sentTokens].some((t) => item.value.includes(t))) {
      hits.push(`${where} holds the token the app sends as its Authorization header`);
    }
  }
  if (hits.length === 0) {
    return [];
  }
  return [
    webappFinding('web.auth.token-in-storage', {
      location: `${origin}/`,
      evidence: hits.slice(0, 3).join('; ') + (hits.length > 3 ? ` (+${hits.length - 3} more)` : ''),
    }),
  ];
}
