// `npm run dist`: builds the web app, the stack (dist/node) and the desktop bundles, then packages installers with electron-builder
// for this operating system (pass e.g. `-- --linux deb` to choose targets). The auto-update feed comes from
// VIGIL_UPDATE_URL (https); without it the installers are built without an update feed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Configuration } from 'electron-builder';
import { load } from 'js-yaml';
import { repoRoot } from './lib/electron-binary.ts';
import { DesktopSettings, readSettings } from '../shared/settings.ts';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (const script of ['build:web', 'build:node', 'build:desktop']) {
  execFileSync(npm, ['run', '--silent', script], { cwd: repoRoot, stdio: 'inherit' });
}

const config = load(readFileSync(path.join(repoRoot, 'electron-builder.yml'), 'utf8')) as Configuration;
const feed = readSettings(DesktopSettings, process.env).VIGIL_UPDATE_URL;
if (!feed) {
  console.log('VIGIL_UPDATE_URL is not set: building without an auto-update feed.');
  config.publish = null;
} else if (!feed.startsWith('https://')) {
  console.error('VIGIL_UPDATE_URL must be an https URL.');
  process.exit(1);
}
const args = process.argv.slice(2);
await build({
  config,
  publish: 'never',
  ...(args.includes('--linux')
    ? { linux: args.slice(args.indexOf('--linux') + 1).filter((a) => !a.startsWith('-')) }
    : {}),
});
