// Runs nmap with NSE scripts on some ports of a fixture and returns, per open port, the service nmap
// named (-sV) and each script's text output, read from nmap's XML (-oX -). Used by the class modules
// that compare with nmap's scripts.
import { Parser } from 'htmlparser2';

import { runTool } from './tool-process.ts';

export interface NmapPort {
  /**
   * "2330" for TCP, "2346/udp" for UDP: the planted lists' location without its leading colon; "host"
   * for the host scripts (nmap's SMB scripts are host scripts).
   */
  key: string;
  state: string;
  /** The service nmap named, e.g. "mysql MariaDB 10.11". */
  service: string;
  /** nmap took the name from its port table, unconfirmed ("exec?" in its normal output). */
  guessed: boolean;
  /** Script id → its output text (nmap's own rendering, newlines kept). */
  scripts: Map<string, string>;
}

export interface NmapRun {
  ports: Map<string, NmapPort>;
  ms: number;
}

export function parseNmapXml(xml: string): Map<string, NmapPort> {
  const ports = new Map<string, NmapPort>();
  let current: NmapPort | null = null;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'port' || name === 'hostscript') {
          const key =
            name === 'hostscript'
              ? 'host'
              : attrs.protocol === 'udp'
                ? `${attrs.portid}/udp`
                : String(attrs.portid);
          current = { key, state: '', service: '', guessed: false, scripts: new Map() };
          ports.set(key, current);
        } else if (current && name === 'state') {
          current.state = attrs.state ?? '';
        } else if (current && name === 'service') {
          current.service = [attrs.name, attrs.product, attrs.version].filter(Boolean).join(' ');
          current.guessed = attrs.method === 'table';
        } else if (current && name === 'script' && attrs.id) {
          current.scripts.set(attrs.id, attrs.output ?? '');
        }
      },
      onclosetag(name) {
        if (name === 'port' || name === 'hostscript') {
          current = null;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return ports;
}

/** `nmap -Pn -sV [-sT] [-sU] -p T:…,U:… --script SCRIPTS` on 127.0.0.1, with optional script arguments. */
export async function nmapScripts(
  { tcp = [], udp = [] }: { tcp?: number[]; udp?: number[] },
  scripts: string[],
  scriptArgs?: string,
): Promise<NmapRun> {
  const ports = [...tcp.map((p) => `T:${p}`), ...udp.map((p) => `U:${p}`)].join(',');
  const run = await runTool(
    'nmap',
    [
      '-Pn',
      '-n',
      ...(tcp.length ? ['-sT'] : []),
      ...(udp.length ? ['-sU'] : []),
      '-sV',
      '-p',
      ports,
      '--script',
      scripts.join(','),
      ...(scriptArgs ? ['--script-args', scriptArgs] : []),
      '-oX',
      '-',
      '127.0.0.1',
    ],
    { timeoutMs: 300_000 },
  );
  return { ports: parseNmapXml(run.stdout), ms: run.ms };
}
