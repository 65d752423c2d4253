// Findings grouped by the root cause one change fixes, with the concrete steps of that change. Config
// snippets are given for nginx, Apache, Express and IIS where the fix is configuration.
export interface Snippets {
  nginx?: string;
  apache?: string;
  express?: string;
  iis?: string;
}

export interface Step {
  title: string;
  detail?: string;
  snippets?: Snippets;
}

export interface RootCause {
  key: string;
  title: string;
  /** Rule ids (exact) or prefixes ending in '.' that this cause explains. */
  rules: string[];
  summary: string;
  steps: Step[];
}

const headerSnippets: Snippets = {
  nginx: `add_header Content-Security-Policy "default-src 'self'; frame-ancestors 'none'" always;
add_header X-Content-Type-Options "nosniff" always;
add_header Referrer-Policy "strict-origin-when-cross-origin" always;
add_header Permissions-Policy "camera=(), microphone=(), geolocation=()" always;
add_header X-Frame-Options "DENY" always;`,
  apache: `Header always set Content-Security-Policy "default-src 'self'; frame-ancestors 'none'"
Header always set X-Content-Type-Options "nosniff"
Header always set Referrer-Policy "strict-origin-when-cross-origin"
Header always set Permissions-Policy "camera=(), microphone=(), geolocation=()"
Header always set X-Frame-Options "DENY"`,
  express: `import helmet from 'helmet';
app.use(helmet({ contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } } }));`,
  iis: `<system.webServer><httpProtocol><customHeaders>
  <add name="Content-Security-Policy" value="default-src 'self'; frame-ancestors 'none'" />
  <add name="X-Content-Type-Options" value="nosniff" />
  <add name="Referrer-Policy" value="strict-origin-when-cross-origin" />
  <add name="X-Frame-Options" value="DENY" />
</customHeaders></httpProtocol></system.webServer>`,
};

export const rootCauses: RootCause[] = [
  {
    key: 'exposed-sensitive-files',
    title: 'Block public access to sensitive files and listings',
    rules: ['web.exposed.', 'web.directory-listing', 'web.robots.', 'web.disclosure.header-path'],
    summary:
      'Repository metadata, environment files, backups, status and debug pages are downloadable by anyone.',
    steps: [
      {
        title: 'Remove the files from the web root and rotate every secret they contained',
        detail:
          'Assume anything that was downloadable has been downloaded: change passwords and keys found in .env, backups and .git.',
      },
      {
        title: 'Deny dotfiles, backups and debug endpoints at the web server and turn directory listings off',
        snippets: {
          nginx: `location ~ /\\.(?!well-known) { deny all; }
location ~* \\.(bak|old|orig|swp|sql)$ { deny all; }
location ~* \\.(tar\\.gz|tgz|zip|rar|7z)$ { deny all; }
location ~ ^/(server-status|nginx_status|fpm-status|metrics|phpinfo\\.php|actuator|debug) { allow 127.0.0.1; deny all; }
autoindex off;`,
          apache: `<DirectoryMatch "/\\.(?!well-known)">
  Require all denied
</DirectoryMatch>
<FilesMatch "\\.(bak|old|orig|swp|sql)$">
  Require all denied
</FilesMatch>
Options -Indexes`,
          express: `app.use(express.static('public', { dotfiles: 'deny', index: false }));
// and never mount debug routes (actuator, phpinfo, status pages) in production builds`,
          iis: `<system.webServer>
  <directoryBrowse enabled="false" />
  <security><requestFiltering>
    <hiddenSegments><add segment=".git" /><add segment=".env" /></hiddenSegments>
    <fileExtensions><add fileExtension=".bak" allowed="false" /></fileExtensions>
  </requestFiltering></security>
</system.webServer>`,
        },
      },
      { title: 'Re-run the scan to confirm the paths now answer 403 or 404' },
    ],
  },
  {
    key: 'write-methods',
    title: 'Control HTTP methods: WebDAV writes, TRACE, method-limited access rules',
    rules: ['web.webdav.', 'web.method.', 'web.auth.method-bypass'],
    summary:
      'Anyone can upload, move or delete files, have requests echoed back by TRACE, or pass an access rule with another method.',
    steps: [
      {
        title: 'Disable WebDAV where it is not used, and require authentication where it is',
        snippets: {
          nginx:
            '# remove dav_methods, or:\nlocation /dav/ { limit_except GET HEAD { auth_basic "DAV"; auth_basic_user_file /etc/nginx/dav.htpasswd; } }',
          apache: `TraceEnable off
<Location /dav>
  Dav On
  AuthType Basic
  AuthName "DAV"
  AuthUserFile /etc/apache2/dav.htpasswd
  Require valid-user
</Location>`,
          express: '// serve uploads through an authenticated route; never mount a writable static handler',
          iis: '<system.webServer><security><requestFiltering><verbs>\n  <add verb="TRACE" allowed="false" /><add verb="PUT" allowed="false" /><add verb="DELETE" allowed="false" />\n</verbs></requestFiltering></security></system.webServer>',
        },
      },
      { title: 'Delete files in the writable folders that nobody on the team put there' },
      {
        title: 'Write access rules for every method',
        detail:
          'Apache: put Require outside <Limit>, or use <LimitExcept GET POST> to refuse the rest; nginx: limit_except GET POST { deny all; }.',
      },
    ],
  },
  {
    key: 'verbose-errors',
    title: 'Show generic error pages in production',
    rules: ['web.error.'],
    summary: 'Error pages show stack traces, file paths and framework versions.',
    steps: [
      {
        title: 'Turn off error display and debug pages; log the details server-side',
        snippets: {
          nginx:
            'fastcgi_intercept_errors on;\nerror_page 500 502 503 504 /50x.html;\n# php.ini / FPM pool: display_errors = Off',
          apache: 'php_admin_flag display_errors off\nErrorDocument 500 /500.html',
          express:
            "process.env.NODE_ENV = 'production'; // finalhandler then hides stack traces\napp.use((err, req, res, next) => res.status(500).send('Internal error'));",
          iis: '<system.web><customErrors mode="RemoteOnly" /></system.web>\n<system.webServer><httpErrors errorMode="DetailedLocalOnly" /></system.webServer>',
        },
      },
      { title: 'Spring Boot: server.error.include-stacktrace=never; Django/Flask: DEBUG = False' },
    ],
  },
  {
    key: 'security-headers',
    title: 'Send the standard security headers',
    rules: [
      'web.header.csp-missing',
      'web.header.nosniff-missing',
      'web.header.referrer-policy-missing',
      'web.header.permissions-policy-missing',
      'web.clickjacking',
      'api.header.',
      'web.api.',
    ],
    summary: 'Browsers are not told to block framing, MIME sniffing and script injection.',
    steps: [
      { title: 'Add the headers once, at the server or framework level', snippets: headerSnippets },
      { title: 'Tighten the Content-Security-Policy to the script and style sources the site really uses' },
    ],
  },
  {
    key: 'transport-security',
    title: 'Serve everything over HTTPS with HSTS',
    rules: ['web.transport.', 'web.header.hsts-missing', 'web.mixed-content', 'tls.'],
    summary: 'Traffic can be read or altered on the network.',
    steps: [
      {
        title: 'Redirect HTTP to HTTPS and send Strict-Transport-Security',
        snippets: {
          nginx: `server { listen 80; return 301 https://$host$request_uri; }
add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;`,
          apache: `RewriteEngine On
RewriteCond %{HTTPS} off
RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains"`,
          express: `app.set('trust proxy', 1);
app.use((req, res, next) => (req.secure ? next() : res.redirect(301, 'https://' + req.headers.host + req.url)));
app.use(helmet.hsts({ maxAge: 31536000, includeSubDomains: true }));`,
          iis: `<rewrite><rules><rule name="HTTPS" stopProcessing="true"><match url="(.*)" />
  <conditions><add input="{HTTPS}" pattern="off" /></conditions>
  <action type="Redirect" url="https://{HTTP_HOST}/{R:1}" redirectType="Permanent" /></rule></rules></rewrite>`,
        },
      },
      { title: 'Load every script, style and image over https:// (no mixed content)' },
    ],
  },
  {
    key: 'version-disclosure',
    title: 'Stop advertising server and framework versions',
    rules: ['web.disclosure.'],
    summary: 'Version banners tell attackers which known exploits to try.',
    steps: [
      {
        title: 'Turn off version banners',
        snippets: {
          nginx: 'server_tokens off;',
          apache: 'ServerTokens Prod\nServerSignature Off\n# php.ini: expose_php = Off',
          express: "app.disable('x-powered-by');",
          iis: '<system.webServer><security><requestFiltering removeServerHeader="true" /></security>\n  <httpProtocol><customHeaders><remove name="X-Powered-By" /></customHeaders></httpProtocol></system.webServer>',
        },
      },
      { title: 'Remove generator meta tags from templates' },
    ],
  },
  {
    key: 'cookie-flags',
    title: 'Set Secure, HttpOnly and SameSite on session cookies',
    rules: ['web.cookie.'],
    summary: 'Session cookies can be read by scripts or sent in cross-site requests.',
    steps: [
      {
        title: 'Mark cookies HttpOnly, Secure and SameSite',
        snippets: {
          nginx: 'proxy_cookie_flags ~ httponly secure samesite=lax;',
          apache: 'Header always edit Set-Cookie ^(.*)$ "$1; HttpOnly; Secure; SameSite=Lax"',
          express: "app.use(session({ cookie: { httpOnly: true, secure: true, sameSite: 'lax' } }));",
          iis: '<system.web><httpCookies httpOnlyCookies="true" requireSSL="true" sameSite="Lax" /></system.web>',
        },
      },
    ],
  },
  {
    key: 'csrf-protection',
    title: 'Protect state-changing requests against cross-site request forgery',
    rules: ['web.csrf.'],
    summary:
      "Another website can make a logged-in visitor's browser submit your forms, with their session, without them knowing.",
    steps: [
      {
        title: 'Put an anti-forgery token in every state-changing form and check it on the server',
        detail:
          "Use your framework's protection: csrf-sync or csrf-csrf for Express, @fastify/csrf-protection, Django's CsrfViewMiddleware, Rails' protect_from_forgery, Laravel's VerifyCsrfToken, Spring Security's CSRF support.",
      },
      {
        title: 'Mark the session cookie SameSite=Lax (or Strict) as a second line',
        snippets: {
          nginx: 'proxy_cookie_flags ~ samesite=lax;',
          apache: 'Header always edit Set-Cookie ^(.*)$ "$1; SameSite=Lax"',
          express: "app.use(session({ cookie: { httpOnly: true, secure: true, sameSite: 'lax' } }));",
          iis: '<system.web><httpCookies sameSite="Lax" /></system.web>',
        },
      },
    ],
  },
  {
    key: 'token-signing',
    title: 'Sign session tokens with a strong key and verify them strictly',
    rules: [
      'web.auth.jwt-unsigned',
      'web.auth.jwt-weak-secret',
      'web.auth.session-cookie-forgeable',
      'web.auth.cookie-weak-secret',
    ],
    summary:
      'Anyone can write a token the app takes for its own: an unsigned one, or one (a JSON Web Token, a session cookie) signed with a key anyone can guess.',
    steps: [
      {
        title: 'Sign with a random key of 32 bytes or more, or an asymmetric key, kept out of the source',
        detail:
          "openssl rand -base64 48 for HS256 and for session secrets (express-session's secret, cookie-session's and Koa's keys, Flask's SECRET_KEY), read from the environment; or RS256/ES256/EdDSA with a private key for tokens. Rotate the key: every token signed with the old one must then be refused.",
      },
      {
        title: 'Verify every token with a fixed list of algorithms that never holds "none"',
        snippets: {
          express:
            "jwt.verify(token, key, { algorithms: ['HS256'] }); // or expressjwt({ secret: key, algorithms: ['HS256'] })",
        },
      },
    ],
  },
  {
    key: 'cors-policy',
    title: 'Allow cross-origin requests only from your own origins',
    rules: ['web.cors.', 'api.cors.'],
    summary: "Any website can read authenticated responses through the visitor's browser.",
    steps: [
      {
        title:
          'Replace the reflected Origin with an allow-list and never allow the null origin with credentials',
        snippets: {
          nginx: `map $http_origin $cors_origin { default ""; "https://app.example.com" $http_origin; }
add_header Access-Control-Allow-Origin $cors_origin always;
add_header Vary Origin always;`,
          apache: `SetEnvIf Origin "^https://app\\.example\\.com$" CORS_OK=$0
Header always set Access-Control-Allow-Origin %{CORS_OK}e env=CORS_OK
Header always merge Vary Origin`,
          express: "app.use(cors({ origin: ['https://app.example.com'], credentials: true }));",
          iis: '<cors enabled="true"><add origin="https://app.example.com" allowCredentials="true" /></cors>',
        },
      },
    ],
  },
  {
    key: 'injection',
    title: 'Fix injection flaws in application code',
    rules: [
      'web.xss.',
      'web.sqli.',
      'api.sqli.',
      'web.open-redirect',
      'web.path-traversal',
      'web.ssti',
      'web.code-injection',
      'web.deserialization',
      'web.command-injection',
      'web.nosqli',
      'web.xxe',
    ],
    summary:
      'User input reaches HTML, SQL or NoSQL queries, file paths, templates, shell commands, deserializers, XML parsers or redirects unchecked; this is fixed in code, not configuration.',
    steps: [
      { title: 'Use parameterised queries or an ORM for every SQL statement that includes input' },
      {
        title:
          'Check the type of every value a NoSQL filter takes (a string, not an object such as {"$ne": …}), or cast it, and strip keys starting with $ from request bodies and query strings',
      },
      {
        title:
          'Never build file paths, templates or shell commands from input: map input to an allow-list of known names, render templates from fixed sources with data passed as variables, and call programs with an argument list instead of a shell',
      },
      {
        title:
          "Encode output for its context (HTML, attribute, JavaScript) with the template engine's auto-escaping",
      },
      { title: 'Redirect only to relative paths or an allow-list of hosts' },
      {
        title:
          'Read data from clients with JSON.parse, json.loads or yaml.safe_load, never node-serialize, pickle or a YAML loader that builds arbitrary objects',
      },
      {
        title:
          'Parse XML from users with external entities and DTD loading off (no LIBXML_NOENT in PHP, lxml resolve_entities=False or defusedxml in Python, disallow-doctype-decl in Java)',
      },
      { title: 'Add a regression test per reported location, then re-run the scan' },
    ],
  },
  {
    key: 'leaked-secrets',
    title: 'Rotate leaked credentials and keep secrets out of served files',
    rules: ['web.secret.'],
    summary: 'Keys and tokens are visible in pages or scripts anyone can download.',
    steps: [
      { title: "Revoke and rotate each key now; check the provider's logs for use since it leaked" },
      {
        title:
          'Move secrets to server-side environment variables or a secrets manager; never bundle them into client code',
      },
      { title: 'Add secret scanning to CI so a key never ships again' },
    ],
  },
  {
    key: 'outdated-components',
    title: 'Upgrade components with known vulnerabilities',
    rules: ['web.vulnerable-library', 'infra.ssh.outdated'],
    summary: 'Components with published CVEs are in use.',
    steps: [
      { title: 'Upgrade each component to a supported, patched release' },
      { title: 'Track dependencies with an automated updater and subscribe to their security advisories' },
    ],
  },
  {
    key: 'exposed-services',
    title: 'Close network services that should not be public',
    rules: ['infra.'],
    summary: 'Databases, caches, remote-desktop and file services answer from the internet.',
    steps: [
      {
        title: 'Bind internal services to localhost or a private network',
        detail:
          'Redis: bind 127.0.0.1 and requirepass; MongoDB: net.bindIp 127.0.0.1 and security.authorization enabled; PostgreSQL: listen_addresses and pg_hba.conf.',
      },
      {
        title: 'Allow only the ports you serve in the host firewall or security group',
        detail: 'ufw default deny incoming && ufw allow 443/tcp',
      },
      { title: 'Reach administration ports (SSH, RDP, VNC) only through a VPN or bastion, with keys or MFA' },
    ],
  },
  {
    key: 'api-access-control',
    title: 'Require authentication and limits on the API',
    rules: ['api.auth.', 'api.method.', 'api.rate-limit.', 'api.error.', 'web.auth.', 'web.graphql.'],
    summary:
      'API operations run without authentication, without rate limits, with verbose errors or a self-describing schema.',
    steps: [
      { title: 'Require a token on every non-public operation and check the caller may act on the object' },
      {
        title: 'Rate-limit the API and disable TRACE',
        snippets: {
          nginx:
            'limit_req_zone $binary_remote_addr zone=api:10m rate=10r/s;\nlocation /api/ { limit_req zone=api burst=20; limit_except GET POST PUT PATCH DELETE { deny all; } }',
          apache: 'TraceEnable off\n# mod_ratelimit / mod_evasive for request limits',
          express:
            "import rateLimit from 'express-rate-limit';\napp.use('/api', rateLimit({ windowMs: 60_000, limit: 600 }));",
          iis: '<security><requestFiltering><verbs><add verb="TRACE" allowed="false" /></verbs></requestFiltering>\n  <dynamicIpSecurity><denyByRequestRate enabled="true" maxRequests="20" requestIntervalInMilliseconds="1000" /></dynamicIpSecurity></security>',
        },
      },
      { title: 'Return generic error bodies in production; log the details server-side' },
      {
        title: 'Turn off GraphQL introspection in production',
        detail:
          'Apollo Server: introspection: false; graphql-core/Graphene: a validation rule that rejects __schema and __type; Hasura: HASURA_GRAPHQL_ENABLE_INTROSPECTION false for public roles.',
      },
    ],
  },
];

/** The root cause of a rule: the first cause whose rules match, or one cause per unknown rule. */
export function rootCauseOf(ruleId: string): RootCause {
  const found = rootCauses.find((cause) =>
    cause.rules.some((r) => (r.endsWith('.') ? ruleId.startsWith(r) : ruleId === r)),
  );
  return (
    found ?? {
      key: `rule:${ruleId}`.slice(0, 100),
      title: `Resolve ${ruleId}`,
      rules: [ruleId],
      summary: 'Findings of this rule are open.',
      steps: [{ title: 'Follow the remediation given with each finding, then re-run the scan' }],
    }
  );
}
