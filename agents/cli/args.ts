// Command-line arguments of `npm run scan`, validated; a UsageError means exit code 2.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

import { z } from 'zod';

import { scanTypes } from '../../shared/findings.ts';
import { TargetLogin } from '../../shared/target-login.ts';
import type { ScanType } from '../../shared/findings.ts';
import { parsePorts } from '../scanners/infrastructure/ports.ts';

export const usage = `usage: npm run scan -- --type webapp|infrastructure|api --target URL_OR_HOST [--ports LIST] [--openapi URL] [--rate N] [--login FILE] [--intrusive] [--max-time SECONDS] [--max-memory MB] [--json]

  --type      webapp (crawl and web checks), infrastructure (TCP port scan and service checks) or api (OpenAPI-driven checks)
  --target    a URL (webapp, api) or a host name / IP address (infrastructure)
  --ports     infrastructure only: e.g. 22,80,8000-8100, or "-" for all 65535 (default: the 1000 most common plus database ports)
  --openapi   api only: URL of the OpenAPI 3 document, JSON or YAML (default: discovered at /openapi.json, /openapi.yaml, /swagger.json, /v3/api-docs)
  --rate      webapp and api: at most N requests per second to the target, 0.1 to 1000 (default: no limit)
  --login     webapp only: a JSON file with the site's login, to scan logged in too: {"kind":"form","login_url",
              "username_field","password_field","username","password"[,"logged_in_marker"]}, {"kind":"cookie",
              "cookie":"name=value"} or {"kind":"header","header_name":"Authorization","header_value":"Bearer …"}
  --intrusive also run the intrusive checks, which change the target to prove a problem (a marker file
              written over WebDAV or anonymous FTP, and deleted); only on a target that is yours (default: left out)
  --max-time  end the scan after this many seconds, 10 to 86400, keeping what it found (default: web 1200,
              api 600, infrastructure 1800, or VIGIL_SCAN_MAX_MINUTES)
  --max-memory  memory cap in MB of the scan's processes, Chromium included, 256 to 65536 (default: web 2048,
              others 768, or VIGIL_SCAN_MAX_MEMORY_MB)
  --json      print the result as JSON on stdout instead of a report

  Ctrl-C stops the scan and prints what it found so far; a second Ctrl-C quits at once.`;

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface CliArgs {
  type: ScanType;
  target: string;
  ports?: string;
  openapi?: string;
  /** Requests per second to the target. */
  rate?: number;
  /** webapp: the site's login, read from the --login file. */
  login?: TargetLogin;
  /** Also run the intrusive checks (they change the target, and clean up). */
  intrusive: boolean;
  /** The scan's time limit in seconds. */
  maxTime?: number;
  /** The memory cap of the scan's processes in MB. */
  maxMemory?: number;
  json: boolean;
  help: boolean;
}

const schema = z.object({
  type: z.enum(scanTypes, { error: () => `--type must be one of ${scanTypes.join(', ')}` }),
  target: z.string({ error: '--target is required' }).trim().min(1, '--target must not be empty'),
  ports: z.string().optional(),
  openapi: z.string().optional(),
  rate: z
    .string()
    .regex(/^\d+(\.\d+)?$/, '--rate must be a number of requests per second')
    .transform(Number)
    .refine((n) => n >= 0.1 && n <= 1000, '--rate must be between 0.1 and 1000 requests per second')
    .optional(),
  login: z.string().optional(),
  'max-time': z
    .string()
    .regex(/^\d+$/, '--max-time must be a whole number of seconds')
    .transform(Number)
    .refine((n) => n >= 10 && n <= 86_400, '--max-time must be between 10 and 86400 seconds')
    .optional(),
  'max-memory': z
    .string()
    .regex(/^\d+$/, '--max-memory must be a whole number of MB')
    .transform(Number)
    .refine((n) => n >= 256 && n <= 65_536, '--max-memory must be between 256 and 65536 MB')
    .optional(),
  intrusive: z.boolean().default(false),
  json: z.boolean().default(false),
});

export function parseCliArgs(argv: string[]): CliArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        type: { type: 'string' },
        target: { type: 'string' },
        ports: { type: 'string' },
        openapi: { type: 'string' },
        rate: { type: 'string' },
        login: { type: 'string' },
        'max-time': { type: 'string' },
        'max-memory': { type: 'string' },
        intrusive: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    return { type: 'webapp', target: '', intrusive: false, json: false, help: true };
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  const args = parsed.data;
  if (args.ports !== undefined && args.type !== 'infrastructure') {
    throw new UsageError('--ports applies to --type infrastructure only');
  }
  if (args.openapi !== undefined && args.type !== 'api') {
    throw new UsageError('--openapi applies to --type api only');
  }
  if (args.login !== undefined && args.type !== 'webapp') {
    throw new UsageError('--login applies to --type webapp only');
  }
  if (args.rate !== undefined && args.type === 'infrastructure') {
    throw new UsageError('--rate applies to --type webapp and api (HTTP requests) only');
  }
  if (args.ports !== undefined) {
    try {
      parsePorts(args.ports);
    } catch (error) {
      throw new UsageError(`--ports: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (args.type !== 'infrastructure') {
    checkUrl(args.target, '--target');
  } else if (/\s|\//.test(args.target) && !/^[a-z]+:\/\//i.test(args.target)) {
    throw new UsageError(`--target "${args.target}" is not a host name or IP address`);
  }
  if (args.openapi !== undefined) {
    checkUrl(args.openapi, '--openapi');
  }
  const { login: loginFile, 'max-time': maxTime, 'max-memory': maxMemory, ...rest } = args;
  return {
    ...rest,
    ...(loginFile === undefined ? {} : { login: readLogin(loginFile) }),
    ...(maxTime === undefined ? {} : { maxTime }),
    ...(maxMemory === undefined ? {} : { maxMemory }),
    help: false,
  };
}

/** The login file: read and validated here; its problems are named, its secrets never repeated. */
function readLogin(file: string): TargetLogin {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `--login ${file}: ${error instanceof SyntaxError ? 'not valid JSON' : (error as Error).message}`,
    );
  }
  const parsed = TargetLogin.safeParse(raw);
  if (!parsed.success) {
    throw new UsageError(
      `--login ${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'kind'}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

function checkUrl(value: string, flag: string): void {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    throw new UsageError(`${flag} "${value}" is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${flag} must be an http:// or https:// URL, not ${url.protocol}`);
  }
}
