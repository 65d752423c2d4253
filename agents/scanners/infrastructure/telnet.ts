// Telnet option negotiation (RFC 854, RFC 855): a greeting is Telnet only when it opens with well-formed
// commands that negotiate registered options. Bytes that merely start with 0xFF (a binary banner, or
// "FF FF", which is an escaped data byte and negotiates nothing) are not Telnet.
import { printable } from './printable-bytes.ts';

const IAC = 0xff;
const SE = 0xf0;
const SB = 0xfa;
const verbs: Record<number, string> = { 0xfb: 'WILL', 0xfc: 'WONT', 0xfd: 'DO', 0xfe: 'DONT' };

/** Option names by number: the IANA "Telnet Options" registry (0-49, 138-140, 255). */
const optionNames: Record<number, string> = {
  0: 'BINARY',
  1: 'ECHO',
  2: 'RECONNECTION',
  3: 'SUPPRESS-GO-AHEAD',
  4: 'APPROX-MESSAGE-SIZE',
  5: 'STATUS',
  6: 'TIMING-MARK',
  7: 'RCTE',
  8: 'OUTPUT-LINE-WIDTH',
  9: 'OUTPUT-PAGE-SIZE',
  10: 'NAOCRD',
  11: 'NAOHTS',
  12: 'NAOHTD',
  13: 'NAOFFD',
  14: 'NAOVTS',
  15: 'NAOVTD',
  16: 'NAOLFD',
  17: 'EXTEND-ASCII',
  18: 'LOGOUT',
  19: 'BM',
  20: 'DET',
  21: 'SUPDUP',
  22: 'SUPDUP-OUTPUT',
  23: 'SEND-LOCATION',
  24: 'TERMINAL-TYPE',
  25: 'END-OF-RECORD',
  26: 'TUID',
  27: 'OUTMRK',
  28: 'TTYLOC',
  29: '3270-REGIME',
  30: 'X.3-PAD',
  31: 'NAWS',
  32: 'TERMINAL-SPEED',
  33: 'TOGGLE-FLOW-CONTROL',
  34: 'LINEMODE',
  35: 'X-DISPLAY-LOCATION',
  36: 'ENVIRON',
  37: 'AUTHENTICATION',
  38: 'ENCRYPT',
  39: 'NEW-ENVIRON',
  40: 'TN3270E',
  41: 'XAUTH',
  42: 'CHARSET',
  43: 'RSP',
  44: 'COM-PORT-OPTION',
  45: 'SUPPRESS-LOCAL-ECHO',
  46: 'START-TLS',
  47: 'KERMIT',
  48: 'SEND-URL',
  49: 'FORWARD-X',
  138: 'PRAGMA-LOGON',
  139: 'SSPI-LOGON',
  140: 'PRAGMA-HEARTBEAT',
  255: 'EXTENDED-OPTIONS-LIST',
};

/** A subnegotiation longer than this is not a greeting's (terminal types and environments are short). */
const maxSubnegotiation = 512;

export interface TelnetGreeting {
  /** The negotiations, e.g. "DO TERMINAL-TYPE". */
  options: string[];
  /** The text after the commands (a login prompt), printable. */
  text: string;
}

/**
 * The option negotiation that opens `data`, or null when `data` is not a Telnet greeting: it must start
 * with commands, each well formed (a verb and a registered option, a subnegotiation closed by IAC SE, or
 * a one-byte command), and negotiate at least one option. A command cut off at the end of what arrived
 * is left out; any malformed one rejects the whole greeting.
 */
export function readTelnetGreeting(data: Buffer): TelnetGreeting | null {
  if (data[0] !== IAC) {
    return null;
  }
  const options: string[] = [];
  let at = 0;
  while (at < data.length && data[at] === IAC) {
    const command = data[at + 1];
    if (command === undefined) {
      break; // cut off
    }
    if (command === IAC || command < SE) {
      // An escaped data byte (IAC IAC) ends the commands; IAC before 240 is no command at all.
      if (command < SE) {
        return null;
      }
      break;
    }
    const verb = verbs[command];
    if (verb) {
      const option = data[at + 2];
      if (option === undefined) {
        break;
      }
      const name = optionNames[option];
      if (!name) {
        return null;
      }
      options.push(`${verb} ${name}`);
      at += 3;
    } else if (command === SB) {
      const end = data.indexOf(Buffer.from([IAC, SE]), at + 2);
      if (end < 0) {
        if (data.length - at > maxSubnegotiation) {
          return null;
        }
        break;
      }
      if (!optionNames[data[at + 2]!] || end - at > maxSubnegotiation) {
        return null;
      }
      at = end + 2;
    } else if (command === SE) {
      return null; // SE without SB
    } else {
      at += 2; // NOP, DM, BRK, IP, AO, AYT, EC, EL, GA
    }
  }
  if (options.length === 0) {
    return null;
  }
  // The prompt may carry further negotiations; only its printable text is kept.
  const text = printable(Buffer.from(data.subarray(at).filter((byte) => byte < 0xf0)));
  return { options, text };
}

/** "option negotiation: DO TERMINAL-TYPE, WILL ECHO; Debian GNU/Linux login:" */
export function describeTelnet(greeting: TelnetGreeting): string {
  return `option negotiation: ${greeting.options.slice(0, 12).join(', ')}${
    greeting.options.length > 12 ? ` (+${greeting.options.length - 12} more)` : ''
  }${greeting.text ? `; ${greeting.text}` : ''}`;
}
