import { describe, expect, it } from 'vitest';

import type { LibraryVulnerability } from './data-schema.ts';
import {
  affects,
  detectInContent,
  detectInUrl,
  firstSafeVersion,
  isAtOrAbove,
  retireRepository,
} from './retire.ts';

const entry = (name: string) => retireRepository().data.libraries[name]!;
const found = (list: { library: string; version: string }[]) => list.map((d) => `${d.library} ${d.version}`);

describe("retire.js's version order", () => {
  it('compares numerically part by part, missing parts as 0', () => {
    expect(isAtOrAbove('1.10.0', '1.9.1')).toBe(true);
    expect(isAtOrAbove('1.9', '1.9.0')).toBe(true);
    expect(isAtOrAbove('1.8.99', '1.9.0')).toBe(false);
    expect(isAtOrAbove('4.17.21', '4.17.21')).toBe(true);
  });

  it('puts pre-release tags below the release', () => {
    expect(isAtOrAbove('3.0.0-beta1', '3.0.0')).toBe(false);
    expect(isAtOrAbove('3.0.0', '3.0.0-beta1')).toBe(true);
    expect(isAtOrAbove('1.9.0b1', '1.9.0')).toBe(false);
    expect(isAtOrAbove('1.9.0', '1.9.0b1')).toBe(true);
    expect(isAtOrAbove('11.1.0-next.3', '11.1.0-next.0')).toBe(true);
  });

  it('reads a range as [atOrAbove, below) without its exclusions', () => {
    const range: LibraryVulnerability = {
      below: '3.0.0',
      atOrAbove: '1.12.3',
      severity: 'medium',
      ids: ['x'],
      summary: '',
    };
    expect(affects(range, '1.12.3')).toBe(true);
    expect(affects(range, '1.12.2')).toBe(false);
    expect(affects(range, '3.0.0-beta1')).toBe(true);
    expect(affects(range, '3.0.0')).toBe(false);
    expect(affects({ ...range, excludes: ['2.2.4'] }, '2.2.4')).toBe(false);
  });

  it('follows fixed-in bounds to the first safe release, and knows when there is none', () => {
    expect(firstSafeVersion(entry('jquery'), '1.12.4')).toBe('3.5.0');
    // jQuery 2.x is end-of-life (below 2.999.999): the way out is the 3.x line's fix.
    expect(firstSafeVersion(entry('jquery'), '2.2.4')).toBe('3.5.0');
    expect(firstSafeVersion(entry('jquery'), '3.7.1')).toBeNull();
    expect(firstSafeVersion(entry('angularjs'), '1.5.8')).toBeNull();
    expect(firstSafeVersion(entry('bootstrap'), '3.3.7')).toBe('4.3.1');
  });
});

describe('extractors', () => {
  it('reads versions from CDN paths and file names, not from look-alikes', () => {
    expect(
      found(detectInUrl(new URL('https://cdnjs.example/ajax/libs/jquery/1.12.4/jquery.min.js'))),
    ).toEqual(['jquery 1.12.4']);
    expect(found(detectInUrl(new URL('https://site.example/js/jquery-3.4.1.min.js?v=2')))).toEqual([
      'jquery 3.4.1',
    ]);
    expect(
      found(detectInUrl(new URL('https://site.example/ajax/libs/lodash.js/4.17.4/lodash.min.js'))),
    ).toEqual(['lodash 4.17.4']);
    expect(detectInUrl(new URL('https://site.example/js/jquery-ui-tweaks.js'))).toEqual([]);
    expect(detectInUrl(new URL('https://site.example/js/app.js'))).toEqual([]);
  });

  it('reads banners and code, and not prose that mentions a version', () => {
    expect(
      found(
        detectInContent('/*! jQuery v1.12.4 | (c) jQuery Foundation | jquery.org/license */\n!function(){}'),
      ),
    ).toEqual(['jquery 1.12.4']);
    expect(
      found(detectInContent('/**\n * @license AngularJS v1.5.8\n * (c) 2010-2016 Google, Inc.\n */')),
    ).toEqual(['angularjs 1.5.8']);
    expect(
      detectInContent('// Needs jQuery 1.4 or later; tested with jQuery v1.4.2 and lodash 4.17.4.'),
    ).toEqual([]);
    expect(detectInContent('')).toEqual([]);
  });
});
