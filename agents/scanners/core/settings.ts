import { readSettings, ScannerSettings } from '../../../shared/settings.ts';

let parsed: ScannerSettings | undefined;

/** The scanners' settings (shared/settings.ts), parsed from the process environment once. */
export function scannerSettings(): ScannerSettings {
  parsed ??= readSettings(ScannerSettings, process.env);
  return parsed;
}
