import { describe, expect, it } from 'vitest';

import { describeTelnet, readTelnetGreeting } from './telnet.ts';

const bytes = (...parts: (number[] | string)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('Telnet greeting', () => {
  it("reads inetutils telnetd's opening: the options it negotiates and its prompt", () => {
    const greeting = readTelnetGreeting(
      bytes(
        [0xff, 0xfd, 0x18, 0xff, 0xfd, 0x20, 0xff, 0xfd, 0x23, 0xff, 0xfd, 0x27],
        '\r\nDebian GNU/Linux 12\r\nlogin: ',
      ),
    );
    expect(greeting?.options).toEqual([
      'DO TERMINAL-TYPE',
      'DO TERMINAL-SPEED',
      'DO X-DISPLAY-LOCATION',
      'DO NEW-ENVIRON',
    ]);
    expect(describeTelnet(greeting!)).toBe(
      'option negotiation: DO TERMINAL-TYPE, DO TERMINAL-SPEED, DO X-DISPLAY-LOCATION, DO NEW-ENVIRON; Debian GNU/Linux 12 login:',
    );
  });

  it('takes subnegotiations and one-byte commands, and leaves out a command cut off at the end', () => {
    const greeting = readTelnetGreeting(
      bytes([0xff, 0xfb, 0x01, 0xff, 0xf1, 0xff, 0xfa, 0x18, 0x01, 0xff, 0xf0, 0xff, 0xfd]),
    );
    expect(greeting?.options).toEqual(['WILL ECHO']);
  });

  it('is not Telnet: FF FF (an escaped data byte), unregistered options, IAC before 240, SE alone, text', () => {
    expect(readTelnetGreeting(bytes([0xff, 0xff, 0x41, 0x42]))).toBeNull();
    expect(readTelnetGreeting(bytes([0xff, 0xff, 0xff, 0xfb, 0x01]))).toBeNull();
    expect(readTelnetGreeting(bytes([0xff, 0xfb, 0x99]))).toBeNull();
    expect(readTelnetGreeting(bytes([0xff, 0xfd, 0x18, 0xff, 0xfb, 0xc8]))).toBeNull();
    expect(readTelnetGreeting(bytes([0xff, 0x41, 0x42]))).toBeNull();
    expect(readTelnetGreeting(bytes([0xff, 0xf0]))).toBeNull();
    expect(readTelnetGreeting(bytes([0xff, 0xfa, 0x18, ...Array<number>(600).fill(0x41)]))).toBeNull();
    expect(readTelnetGreeting(bytes('login: '))).toBeNull();
    // Commands only, but none negotiates an option.
    expect(readTelnetGreeting(bytes([0xff, 0xf1, 0xff, 0xf9]))).toBeNull();
  });

  it('keeps only printable text of the prompt, and counts a long list of options', () => {
    const many = Array.from({ length: 15 }, () => [0xff, 0xfb, 0x01]).flat();
    const greeting = readTelnetGreeting(bytes(many, '\x1b[2J\x1b[32mwelcome\x07'));
    expect(greeting?.text).toBe('[2J [32mwelcome');
    expect(describeTelnet(greeting!)).toMatch(/WILL ECHO \(\+3 more\); \[2J \[32mwelcome$/);
  });
});
