// Signing keys anyone can guess: framework defaults, the keys READMEs, tutorials and framework docs show
// (developers copy them), the wordlists testers start from, and the site's own name with the variants
// developers sign with. One list for every check that tries keys on what the app signs (its JSON Web Tokens,
// its signed cookies); bounded, so is the work.
import { timingSafeEqual } from 'node:crypto';

/** Keys tried per token or cookie at most: the well-known ones and the site's own. */
export const maxKeyCandidates = 300;

/** Keys seen in frameworks' defaults, READMEs, tutorials and the wordlists testers start from. */
export const WELL_KNOWN_KEYS: readonly string[] = [
  'secret',
  'Secret',
  'SECRET',
  'secretkey',
  'secret_key',
  'secret-key',
  'secretKey',
  'mysecret',
  'my_secret',
  'mysecretkey',
  'my-secret-key',
  'my_secret_key',
  'your-256-bit-secret',
  'your-384-bit-secret',
  'your-512-bit-secret',
  'your_jwt_secret',
  'your-jwt-secret',
  'your-secret-key',
  'your_secret_key',
  'yoursecret',
  'jwt',
  'jwtsecret',
  'jwt_secret',
  'jwt-secret',
  'jwtSecret',
  'JWT_SECRET',
  'jwtkey',
  'jwt_key',
  'jwt-key',
  'token',
  'tokensecret',
  'token_secret',
  'auth',
  'authsecret',
  'auth_secret',
  'access',
  'access_secret',
  'accesstoken',
  'refresh_secret',
  'changeme',
  'change_me',
  'change-me',
  'changethis',
  'changeit',
  'CHANGE_ME',
  'password',
  'Password',
  'password1',
  'Password1',
  'passw0rd',
  'P@ssw0rd',
  'pass',
  'admin',
  'administrator',
  'root',
  'test',
  'testing',
  'test123',
  'dev',
  'development',
  'prod',
  'production',
  'default',
  'example',
  'sample',
  'demo',
  'key',
  'private',
  'privatekey',
  'private_key',
  'public',
  'shhhhh',
  'shhhhhhared-secret',
  'shared-secret',
  'sharedsecret',
  'supersecret',
  'super_secret',
  'super-secret',
  'supersecretkey',
  'topsecret',
  'top_secret',
  'keyboard cat',
  'keyboardcat',
  'hello',
  'helloworld',
  'hello world',
  'qwerty',
  'qwertyuiop',
  'letmein',
  'welcome',
  'abc123',
  'abcdef',
  'abcdefg',
  'abcdefgh',
  '123',
  '1234',
  '12345',
  '123456',
  '1234567',
  '12345678',
  '123456789',
  '1234567890',
  '0123456789',
  '000000',
  '111111',
  'iloveyou',
  'monkey',
  'dragon',
  'master',
  'session',
  'session_secret',
  'cookie',
  'cookie_secret',
  'app',
  'app_secret',
  'appsecret',
  'application',
  'api',
  'api_secret',
  'apisecret',
  'apikey',
  'api_key',
  'server',
  'node',
  'nodejs',
  'express',
  'flask',
  'django',
  'laravel',
  'rails',
  'spring',
  'symfony',
  'ThisIsMySecretKey',
  'thisismysecret',
  'this_is_a_secret',
  'this-is-a-secret',
  'notasecret',
  'not-a-secret',
  'not_so_secret',
  'null',
  'undefined',
  'none',
  'false',
  'true',
  'secret123',
  'secret1',
  'secret!',
  's3cr3t',
  's3cret',
  'Secret123',
  'mySecret',
  'MySecret',
  'gsdfgsdfg',
  'fe1a1915a379f3be5394b64d14794932',
  'bad_secret',
  'insecure',
  'unsafe',
  'weak',
  'weaksecret',
  // Session and cookie secrets the frameworks' own READMEs, docs and books show: express-session, Express's
  // auth example, Koa and koa-session, cookie-session, Keygrip, the Flask tutorial and two well-read Flask
  // books, Flask's quickstart bytes (kept here as latin-1 text).
  'shhhh, very secret',
  'im a newer secret',
  'i like turtle',
  'some secret hurr',
  'key1',
  'key2',
  'SEKRIT1',
  'SEKRIT2',
  'you-will-never-guess',
  'hard to guess string',
  'super secret key',
  'secret key',
  '_5#y2L"F4Q8z\n\xec]/',
];

/** The site's own name, and the variants of it developers sign with. */
export function siteKeys(names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of names) {
    const name = raw.trim().toLowerCase().slice(0, 40);
    if (name.length < 3 || /^\d+$/.test(name)) {
      continue;
    }
    for (const variant of [
      name,
      `${name}secret`,
      `${name}-secret`,
      `${name}_secret`,
      `${name}key`,
      `${name}-key`,
      `${name}_key`,
      `${name}123`,
      `${name}-jwt`,
      `${name}_jwt`,
    ]) {
      out.add(variant);
    }
  }
  return [...out];
}

/** The keys to try on a site: the well-known ones, then its own names' variants, once each, bounded. */
export function keyCandidates(names: readonly string[]): string[] {
  return [...new Set([...WELL_KNOWN_KEYS, ...siteKeys(names)])].slice(0, maxKeyCandidates);
}

/**
 * The bytes a key stands for: its UTF-8 encoding, and its latin-1 one when that differs (a key written as
 * bytes in the source, as Flask's quickstart shows, is latin-1 text here).
 */
export function keyEncodings(key: string): Buffer[] {
  const utf8 = Buffer.from(key, 'utf8');
  // eslint-disable-next-line no-control-regex -- every code point latin-1 can encode
  return /^[\u0000-\u00ff]*$/.test(key) && /[\u0080-\u00ff]/.test(key)
    ? [utf8, Buffer.from(key, 'latin1')]
    : [utf8];
}

/** The candidate `signature` was made with (by `sign`, given the key's bytes), or null: at most maxKeyCandidates tried. */
export function keySigning(
  candidates: readonly string[],
  signature: Buffer,
  sign: (key: Buffer) => Buffer,
): string | null {
  for (const key of candidates.slice(0, maxKeyCandidates)) {
    for (const bytes of keyEncodings(key)) {
      const actual = sign(bytes);
      if (actual.length === signature.length && timingSafeEqual(actual, signature)) {
        return key;
      }
    }
  }
  return null;
}
