import { describe, expect, it } from 'vitest';

import { crawlNote } from './crawl-note.ts';

describe('crawlNote', () => {
  it('says how a web scan crawled and how its login went', () => {
    expect(crawlNote({ crawl: { engine: 'chromium', login: { status: 'logged-in', detail: 'x' } } })).toEqual(
      {
        text: 'rendered in Chromium · logged in',
        detail: null,
      },
    );
    expect(crawlNote({ crawl: { engine: 'html', login: { status: 'failed', detail: 'no form' } } })).toEqual({
      text: 'HTML only (no JavaScript run) · login failed',
      detail: 'no form',
    });
    expect(crawlNote({ crawl: { engine: 'electron' } })).toEqual({
      text: 'rendered in the desktop app',
      detail: null,
    });
  });

  it('says nothing for other scans or odd shapes', () => {
    for (const value of [null, {}, [], 'x', { crawl: null }, { crawl: { engine: 3 } }]) {
      expect(crawlNote(value)).toBeNull();
    }
  });
});
