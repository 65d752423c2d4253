// Runs nmap with NSE scripts on one port of a fixture and returns each script's text output, read from
// nmap's XML (-oX -). Used by the class modules that compare with nmap's scripts.
import { Parser } from 'htmlparser2';

import { runTool } from './tool-process.ts';

export interface NmapRun {
  /** Script id → its output text (nmap's own rendering, newlines kept). */
  scripts: Map<string, string>;
  /** The service nmap named for the port (-sV), e.g. "ssh OpenSSH 9.2p1". */
  service: string;
  ms: number;
}

export function parseNmapXml(xml: string): Omit<NmapRun, 'ms'> {
  const scripts = new Map<string, string>();
  let service = '';
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'script' && attrs.id) {
          scripts.set(attrs.id, attrs.output ?? '');
        }
        if (name === 'service') {
          service = [attrs.name, attrs.product, attrs.version].filter(Boolean).join(' ');
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return { scripts, service };
}

/** `nmap -Pn -sT [-sU] -sV -p PORT --script SCRIPTS` on 127.0.0.1, with optional script arguments. */
export async function nmapScripts(
  port: number,
  scripts: string[],
  { udp = false, scriptArgs }: { udp?: boolean; scriptArgs?: string } = {},
): Promise<NmapRun> {
  const run = await runTool(
    'nmap',
    [
      '-Pn',
      '-n',
      udp ? '-sU' : '-sT',
      '-sV',
      '-p',
      String(port),
      '--script',
      scripts.join(','),
      ...(scriptArgs ? ['--script-args', scriptArgs] : []),
      '-oX',
      '-',
      '127.0.0.1',
    ],
    { timeoutMs: 180_000 },
  );
  return { ...parseNmapXml(run.stdout), ms: run.ms };
}
