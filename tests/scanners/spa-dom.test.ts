// What the browser crawl finds by acting in the page (tests/fixtures/spa/spa-dom.ts): DOM-based XSS in three
// sinks (jQuery's .html() from the query string, innerHTML from a hash route, a frame's src), and the SQL
// injection of a login API the app calls only when its sign-in box is sent. The safe twin (text writers,
// bound SQL parameters) raises none of it; neither scan ever sends the "delete my account" form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runScan } from '../../agents/scanners/run-scan.ts';
import type { RunningDomApp } from '../fixtures/spa/spa-dom.ts';
import { chromium, debianFile } from '../fixtures/debian-packages.ts';
import { spaDomNeeds, startSpaDom } from '../fixtures/spa/spa-dom.ts';
import { requires } from '../helpers/requirements.ts';
import { measure } from './measure.ts';

describe(
  "web scanner runs a single-page app's URL sinks and forms",
  requires(...Object.values(spaDomNeeds).map(debianFile), chromium()),
  () => {
    let weak: RunningDomApp;
    let safe: RunningDomApp;
    beforeAll(async () => {
      [weak, safe] = await Promise.all([startSpaDom(false), startSpaDom(true)]);
    });
    afterAll(async () => {
      await Promise.all([weak?.close(), safe?.close()]);
    });

    it('proves the DOM XSS sinks by execution and the login API injection through its sign-in box', async () => {
      const result = await runScan('webapp', { target: weak.target, mode: 'local' });
      const m = measure(result.findings, weak.planted, weak.target);
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      const evidence = (location: string) =>
        result.findings.find((f) => f.rule_id === 'web.xss.dom' && f.location.endsWith(location))?.evidence;
      expect(evidence('/#/search?q=')).toMatch(
        /^q=<img src=x onerror=__vigilDom\(\d+\)>.*written through innerHTML/,
      );
      expect(evidence('/?name=')).toMatch(/written through innerHTML/);
      expect(evidence('/#/preview?src=')).toMatch(/^src=javascript:parent\.__vigilDom\(\d+\).*iframe src/);
      // The forms were sent (the sign-in box as JSON, the feedback form encoded), never the deletion.
      expect(weak.events.some((e) => e.startsWith('LOGIN-TRY vigil.scan@example.com'))).toBe(true);
      expect(weak.events).toContain('FEEDBACK comment,rating');
      expect(weak.events).not.toContain('DELETED');
    });

    it('raises nothing on the twin that writes text and binds its SQL', async () => {
      const result = await runScan('webapp', { target: safe.target, mode: 'local' });
      const m = measure(result.findings, safe.planted, safe.target);
      expect(m.missed).toEqual([]);
      expect(m.unexpected).toEqual([]);
      expect(safe.events.some((e) => e.startsWith('LOGIN-TRY vigil.scan@example.com'))).toBe(true);
      expect(safe.events).not.toContain('DELETED');
    });
  },
);
