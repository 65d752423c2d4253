// The browser a web scan renders with when the caller names none: a system Chromium, if installed and
// not turned off (ScannerSettings: VIGIL_SCAN_BROWSER, CHROMIUM_PATH); else the reason there is none.
import type { ScanOptions } from '../../core/context.ts';
import { scannerSettings } from '../../core/settings.ts';
import { chromiumLauncher, defaultChromiumPath, findChromium } from './chromium.ts';

export function chooseBrowser(
  given: ScanOptions['browser'],
): NonNullable<ScanOptions['browser']> | { none: string } {
  if (given === null) {
    return { none: 'the HTML crawl was asked for' };
  }
  if (given) {
    return given;
  }
  const settings = scannerSettings();
  if (!settings.VIGIL_SCAN_BROWSER) {
    return { none: 'rendering is turned off (VIGIL_SCAN_BROWSER=off)' };
  }
  const path = findChromium(settings.CHROMIUM_PATH);
  if (!path) {
    return {
      none: `no Chromium at ${settings.CHROMIUM_PATH ?? defaultChromiumPath} (install Debian's chromium package, or set CHROMIUM_PATH)`,
    };
  }
  return { launch: chromiumLauncher(path), engine: 'chromium' };
}
