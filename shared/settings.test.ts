import { describe, expect, it } from 'vitest';

import {
  DesktopSettings,
  ScannerSettings,
  readSettings,
  SettingsError,
  StackSettings,
  WorkerSettings,
} from './settings.ts';

describe('readSettings', () => {
  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['yes', true],
    ['On', true],
    ['false', false],
    ['0', false],
    ['No', false],
    ['off', false],
    [' false ', false],
  ])('reads VIGIL_LOCAL_MODE=%j as %s, in the stack and the worker alike', (value, expected) => {
    expect(readSettings(StackSettings, { VIGIL_LOCAL_MODE: value }).VIGIL_LOCAL_MODE).toBe(expected);
    expect(readSettings(WorkerSettings, { VIGIL_LOCAL_MODE: value }).VIGIL_LOCAL_MODE).toBe(expected);
  });

  it('defaults: the stack on one machine is local, a separate worker hosted, the scanners use nmap', () => {
    expect(readSettings(StackSettings, {}).VIGIL_LOCAL_MODE).toBe(true);
    expect(readSettings(WorkerSettings, {}).VIGIL_LOCAL_MODE).toBe(false);
    expect(readSettings(ScannerSettings, {})).toEqual({
      VIGIL_SCAN_NMAP: true,
      VIGIL_SCAN_RAW_TCP: true,
      VIGIL_SCAN_BROWSER: true,
      CHROMIUM_PATH: undefined,
      VIGIL_SCAN_TLS_CA_FILE: undefined,
      VIGIL_SCAN_MAX_MINUTES: undefined,
      VIGIL_SCAN_MAX_MEMORY_MB: undefined,
    });
    expect(
      readSettings(ScannerSettings, { VIGIL_SCAN_MAX_MINUTES: '5', VIGIL_SCAN_MAX_MEMORY_MB: '1024' }),
    ).toMatchObject({ VIGIL_SCAN_MAX_MINUTES: 5, VIGIL_SCAN_MAX_MEMORY_MB: 1024 });
    expect(readSettings(StackSettings, { VIGIL_LOCAL_MODE: '' }).VIGIL_LOCAL_MODE).toBe(true);
  });

  it('refuses a value that means nothing, listing every problem at once', () => {
    const attempt = () =>
      readSettings(StackSettings, { VIGIL_LOCAL_MODE: 'maybe', VIGIL_PORT: '99999', VIGIL_AUTOCONFIRM: 'y' });
    expect(attempt).toThrow(SettingsError);
    try {
      attempt();
    } catch (e) {
      const problems = (e as SettingsError).problems.join('\n');
      expect(problems).toMatch(/VIGIL_LOCAL_MODE: "maybe" is not one of/);
      expect(problems).toMatch(/VIGIL_PORT/);
      expect(problems).toMatch(/VIGIL_AUTOCONFIRM: "y"/);
    }
    expect(() => readSettings(StackSettings, { VIGIL_PORT: '80abc' })).toThrow(
      /VIGIL_PORT: must be a whole number/,
    );
    expect(() => readSettings(ScannerSettings, { VIGIL_SCAN_NMAP: 'disabled' })).toThrow(/VIGIL_SCAN_NMAP/);
    expect(() => readSettings(ScannerSettings, { VIGIL_SCAN_MAX_MINUTES: '0' })).toThrow(
      /VIGIL_SCAN_MAX_MINUTES/,
    );
    expect(() => readSettings(ScannerSettings, { VIGIL_SCAN_MAX_MEMORY_MB: '2G' })).toThrow(
      /VIGIL_SCAN_MAX_MEMORY_MB: must be a whole number of MB/,
    );
    expect(() => readSettings(DesktopSettings, { VIGIL_API_URL: 'not a url' })).toThrow(/VIGIL_API_URL/);
    expect(() => readSettings(StackSettings, { DATABASE_URL: 'http://db' })).toThrow(/DATABASE_URL/);
  });

  it('refuses a misspelt VIGIL_ name instead of silently using the default', () => {
    expect(() => readSettings(StackSettings, { VIGIL_LOCALMODE: 'false' })).toThrow(
      /VIGIL_LOCALMODE: not a Vigil setting/,
    );
    // Settings of another piece, and the test and bench harnesses' own, are known.
    expect(() =>
      readSettings(StackSettings, {
        VIGIL_API_URL: 'http://127.0.0.1:54321',
        VIGIL_SCAN_NMAP: 'off',
        VIGIL_TEST_DATABASE_URL: 'postgres://x@127.0.0.1/y',
        VIGIL_BENCH_NETNS: '1',
      }),
    ).not.toThrow();
  });

  it('takes the credentials key as 32 bytes of base64 or hex, and nothing shorter', () => {
    const b64 = btoa(String.fromCharCode(...new Uint8Array(32).fill(7)));
    const hex = '07'.repeat(32);
    expect(readSettings(WorkerSettings, { VIGIL_CREDENTIALS_KEY: b64 }).VIGIL_CREDENTIALS_KEY).toBe(b64);
    expect(readSettings(StackSettings, { VIGIL_CREDENTIALS_KEY: hex }).VIGIL_CREDENTIALS_KEY).toBe(hex);
    expect(readSettings(WorkerSettings, {}).VIGIL_CREDENTIALS_KEY).toBeUndefined();
    expect(() => readSettings(WorkerSettings, { VIGIL_CREDENTIALS_KEY: 'secret' })).toThrow(
      /VIGIL_CREDENTIALS_KEY: must be 32 bytes/,
    );
    expect(() => readSettings(WorkerSettings, { VIGIL_CREDENTIALS_KEY: btoa('x'.repeat(16)) })).toThrow(
      /VIGIL_CREDENTIALS_KEY/,
    );
  });
});
