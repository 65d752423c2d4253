import { readSettings, ScannerSettings, SettingsError } from '../../../shared/settings.ts';
import { readAnchorFile } from './tls-trust.ts';

let parsed: ScannerSettings | undefined;

/**
 * The scanners' settings (shared/settings.ts), parsed from the process environment once. The extra TLS
 * trust anchors are read here too, so a missing or malformed file stops the scan or worker at start-up
 * rather than failing every TLS check later.
 */
export function scannerSettings(): ScannerSettings {
  if (!parsed) {
    const settings = readSettings(ScannerSettings, process.env);
    if (settings.VIGIL_SCAN_TLS_CA_FILE) {
      try {
        readAnchorFile(settings.VIGIL_SCAN_TLS_CA_FILE);
      } catch (error) {
        throw new SettingsError([`VIGIL_SCAN_TLS_CA_FILE: ${(error as Error).message}`]);
      }
    }
    parsed = settings;
  }
  return parsed;
}

/** The scan limits the settings override (VIGIL_SCAN_MAX_MINUTES, VIGIL_SCAN_MAX_MEMORY_MB). */
export function configuredScanLimits(): { timeMs?: number; memoryMb?: number } {
  const settings = scannerSettings();
  return {
    ...(settings.VIGIL_SCAN_MAX_MINUTES === undefined
      ? {}
      : { timeMs: settings.VIGIL_SCAN_MAX_MINUTES * 60_000 }),
    ...(settings.VIGIL_SCAN_MAX_MEMORY_MB === undefined
      ? {}
      : { memoryMb: settings.VIGIL_SCAN_MAX_MEMORY_MB }),
  };
}
