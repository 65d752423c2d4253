import type { Context, Hono } from 'hono';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import type { StackContext } from '../context.ts';
import { authError } from './errors.ts';
import { requireUser, type AuthEnv } from './guard.ts';
import { readBody } from './request.ts';

/**
 * The features Vigil's auth does not offer, answering exactly as GoTrue does with each switched off (status,
 * error_code, message), so a client learns the feature is off rather than meeting an unknown path: SAML
 * single sign-on, the OAuth 2.1 server, custom OAuth providers, passkeys, identity linking, social OAuth
 * providers, ID-token and Web3 sign-in.
 */

const samlDisabled = () => authError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled');
const oauthServerDisabled = () => authError(404, 'feature_disabled', 'OAuth server is disabled');
const customProvidersDisabled = () =>
  authError(404, 'feature_disabled', 'Custom OAuth providers are disabled');
const passkeysDisabled = () => authError(404, 'passkey_disabled', 'Passkeys are disabled');

/** The OAuth providers GoTrue knows by name (each switched off here). */
const OAUTH_PROVIDERS = new Set([
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'kakao',
  'keycloak',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'snapchat',
  'spotify',
  'slack',
  'slack_oidc',
  'twitch',
  'twitter',
  'x',
  'vercel_marketplace',
  'workos',
  'zoom',
]);

/** The issuer GoTrue names when an ID-token provider is switched off. */
const ID_TOKEN_ISSUERS: Record<string, string> = {
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
  vercel_marketplace: 'https://marketplace.vercel.com',
  snapchat: 'https://accounts.snapchat.com/accounts/oauth2/token',
  keycloak: '',
};
const APPLE_ISSUERS = ['https://appleid.apple.com', 'https://account.apple.com'];

/** Routes under these answer as disabled whatever the method or sub-path. */
function disabledTree(app: Hono<AuthEnv>, path: string, error: () => Error): void {
  const fail = () => {
    throw error();
  };
  app.all(path, fail);
  app.all(`${path}/*`, fail);
}

export function mountNotOffered(app: Hono<AuthEnv>, ctx: StackContext): void {
  disabledTree(app, '/sso', samlDisabled);
  disabledTree(app, '/oauth', oauthServerDisabled);
  disabledTree(app, '/passkeys', passkeysDisabled);
  // Behind mountAdmin's service-role guard, as in GoTrue.
  disabledTree(app, '/admin/oauth', oauthServerDisabled);
  disabledTree(app, '/admin/custom-providers', customProvidersDisabled);
  app.get('/.well-known/oauth-authorization-server', () => {
    throw oauthServerDisabled();
  });
  // Behind GoTrue's authentication: a valid session first, then the switch.
  const afterSession = (error: () => Error) => async (c: Context<AuthEnv>) => {
    await requireUser(ctx, c);
    throw error();
  };
  const linkingDisabled = () => authError(404, 'manual_linking_disabled', 'Manual linking is disabled');
  app.all('/user/identities/*', afterSession(linkingDisabled));
  app.all('/user/oauth/grants', afterSession(oauthServerDisabled));
  // signInWithOAuth's redirect: every provider is off.
  app.get('/authorize', (c) => {
    const provider = c.req.query('provider') ?? '';
    const reason = OAUTH_PROVIDERS.has(provider)
      ? 'provider is not enabled'
      : `Provider ${provider} could not be found`;
    throw authError(400, 'validation_failed', `Unsupported provider: ${reason}`);
  });
}

const IdTokenBody = z.object({
  id_token: z.string().max(16384).optional(),
  provider: z.string().max(256).optional(),
  client_id: z.string().max(1024).optional(),
  issuer: z.string().max(2048).optional(),
});

/** An OAuth-style error body, as GoTrue answers a malformed ID-token grant. */
const oauthError = (c: Context, description: string) =>
  c.json({ error: 'invalid request', error_description: description }, 400);

/** The issuer an unverified ID token claims, or null. */
function claimedIssuer(token: string): string | null {
  try {
    const iss = decodeJwt(token).iss;
    return typeof iss === 'string' ? iss : null;
  } catch {
    return null;
  }
}

/**
 * POST /token?grant_type=id_token with every provider switched off: GoTrue's answer for the provider named
 * (or the issuer the token claims, for Apple and Azure), before any token is verified.
 */
export async function idTokenGrantDisabled(c: Context<AuthEnv>): Promise<Response> {
  const body = await readBody(c, IdTokenBody);
  if (!body.id_token) {
    return oauthError(c, 'id_token required');
  }
  const provider = body.provider ?? '';
  if (!provider && (!body.client_id || !body.issuer)) {
    return oauthError(c, 'provider or client_id and issuer required');
  }
  const disabled = (issuer: string) =>
    authError(400, 'provider_disabled', `Provider (issuer ${JSON.stringify(issuer)}) is not enabled`);
  if (provider === 'apple' || APPLE_ISSUERS.includes(body.issuer ?? '')) {
    const iss = claimedIssuer(body.id_token);
    if (iss === null) {
      throw authError(400, 'validation_failed', 'Unable to detect issuer in ID token for Apple provider');
    }
    if (!APPLE_ISSUERS.includes(iss)) {
      throw authError(400, 'validation_failed', 'Detected ID token issuer is not an Apple ID token issuer');
    }
    throw disabled(iss);
  }
  if (provider === 'azure' || (body.issuer ?? '').startsWith('https://login.microsoftonline.com/')) {
    const iss = claimedIssuer(body.id_token);
    if (iss === null) {
      throw authError(400, 'validation_failed', 'Unable to detect issuer in ID token for Azure provider');
    }
    if (
      !iss.startsWith('https://login.microsoftonline.com/') &&
      !iss.startsWith('https://sts.windows.net/')
    ) {
      throw authError(400, 'validation_failed', 'Detected ID token issuer is not an Azure ID token issuer');
    }
    throw disabled(iss);
  }
  const known = Object.entries(ID_TOKEN_ISSUERS).find(
    ([name, issuer]) => provider === name || (issuer !== '' && body.issuer === issuer),
  );
  if (known) {
    throw disabled(known[1]);
  }
  if (provider.startsWith('custom:')) {
    throw authError(400, 'validation_failed', 'Custom OAuth providers are disabled');
  }
  throw authError(400, 'validation_failed', `Custom OIDC provider ${JSON.stringify(provider)} not allowed`);
}

/** POST /token?grant_type=web3 with Solana and Ethereum sign-in both off. */
export const web3Disabled = () => authError(422, 'web3_provider_disabled', 'Web3 provider is disabled');
