// electron-builder.yml against electron-builder's own JSON schema, plus the settings the desktop contract
// depends on (protocol registration, files, targets, hardened runtime, update feed).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const schema = JSON.parse(
  readFileSync(path.join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'),
) as object;
const config = load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, never>;
const validate = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true }).compile(schema);

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema", () => {
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('the schema check is not vacuous: a misspelt key and a wrong type are refused', () => {
    expect(validate({ ...config, prodcutName: 'Vigil' })).toBe(false);
    expect(validate({ ...config, asar: 'yes' })).toBe(false);
  });

  it('registers vigil:// on every system and packages only the built app', () => {
    expect(config).toMatchObject({
      appId: 'security.vigil.app',
      protocols: [{ name: 'Vigil', schemes: ['vigil'] }],
      files: expect.arrayContaining(['dist/electron/**', 'dist/web/**', 'package.json']) as never,
      publish: { provider: 'generic', url: '${env.VIGIL_UPDATE_URL}' },
      win: { target: ['nsis'] },
      mac: { target: expect.arrayContaining(['dmg']) as never, hardenedRuntime: true, notarize: true },
      linux: {
        target: ['AppImage', 'deb'],
        desktop: { entry: { MimeType: 'x-scheme-handler/vigil;' } },
      },
    });
  });

  it('every file it names exists (icons, entitlements, tray images)', () => {
    const res = (f: string) => path.join(root, 'resources', f);
    for (const f of [
      'icon.ico',
      'icon.icns',
      'icons/512x512.png',
      'entitlements.mac.plist',
      'tray/protected.png',
    ]) {
      expect(existsSync(res(f)), f).toBe(true);
    }
    expect(readFileSync(res('entitlements.mac.plist'), 'utf8')).not.toContain('disable-library-validation');
  });
});
