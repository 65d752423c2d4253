// `npm run gen:icons`: renders the icon sources in resources/icons/src (SVG) into what electron-builder and
// the tray need. Output is committed (small), so `npm run desktop` and `npm run dist` work without it;
// run it again after changing a source. Everything here is pure JS or a prebuilt binary from npm.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import png2icons from 'png2icons';
import { repoRoot } from './lib/electron-binary.ts';

const src = path.join(repoRoot, 'resources/icons/src');
const out = path.join(repoRoot, 'resources');
const TRAY_STATES = ['protected', 'scanning', 'critical', 'signed-out'] as const;
const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024];

export function renderPng(svg: string, size: number): Buffer {
  return new Resvg(svg, { fitTo: { mode: 'width', value: size }, background: 'rgba(0,0,0,0)' })
    .render()
    .asPng();
}

/**
 * macOS menu-bar template: the same shape with every paint colour black (the system tints it for light and
 * dark menu bars). Sources write paint colours as #rrggbb and mask colours as #fff/#000, which stay.
 */
export function templateSvg(svg: string): string {
  return svg.replace(/#[0-9a-fA-F]{6}\b/g, '#000000');
}

function write(file: string, data: Buffer): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
}

export function generateIcons(): string[] {
  const written: string[] = [];
  const put = (rel: string, data: Buffer | null) => {
    if (!data) {
      throw new Error(`could not encode ${rel}`);
    }
    write(path.join(out, rel), data);
    written.push(rel);
  };
  const icon = readFileSync(path.join(src, 'icon.svg'), 'utf8');
  for (const size of LINUX_SIZES) {
    put(`icons/${size}x${size}.png`, renderPng(icon, size));
  }
  const big = renderPng(icon, 1024);
  put('icon.png', renderPng(icon, 512));
  put('icon.icns', png2icons.createICNS(big, png2icons.BICUBIC, 0));
  put('icon.ico', png2icons.createICO(big, png2icons.BICUBIC, 0, false, true));
  for (const state of TRAY_STATES) {
    const svg = readFileSync(path.join(src, `tray-${state}.svg`), 'utf8');
    put(`tray/${state}.png`, renderPng(svg, 16));
    put(`tray/${state}@2x.png`, renderPng(svg, 32));
    put(`tray/${state}Template.png`, renderPng(templateSvg(svg), 16));
    put(`tray/${state}Template@2x.png`, renderPng(templateSvg(svg), 32));
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = generateIcons();
  console.log(
    `wrote ${files.length} files to resources/ (${readdirSync(path.join(out, 'tray')).length} tray images)`,
  );
}
