import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * The Electron binary, when npm managed to install it. Importing the `electron` package would try to
 * download a missing binary, so read what its installer records instead.
 */
export function electronBinary(root = repoRoot): string | null {
  const dir = path.join(root, 'node_modules/electron');
  const recorded = path.join(dir, 'path.txt');
  if (!existsSync(recorded)) {
    return null;
  }
  const binary = path.join(dir, 'dist', readFileSync(recorded, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}

export const NO_ELECTRON =
  "Electron's binary is not installed on this machine (npm could not download it, or its install script is not allowed). " +
  'Install it with `npm install-scripts approve electron && npm rebuild electron` on a machine with internet access.';
