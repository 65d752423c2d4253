// JavaScript the scan runs inside the pages it renders (as strings: it runs in the page, not in Node).
import { domSinkScript } from './dom-sinks.ts';

/**
 * Before the page's own scripts: records the client-side routes the app moves to (pushState,
 * replaceState, hash changes, window.open), keeps dialogs from blocking (confirm() answers no, so the
 * scan never confirms a destructive action) and removes WebRTC, which could send UDP around the
 * scan's request interception. Then the DOM XSS probe's instruments (dom-sinks.ts).
 */
export const initScript = `${domSinkScript}
(() => {
  const routes = [];
  Object.defineProperty(window, '__vigilRoutes', { value: routes });
  const record = (u) => { try { routes.push(String(new URL(String(u), location.href))); } catch (e) {} };
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name];
    history[name] = function (state, title, url) {
      if (url !== undefined && url !== null) { record(url); }
      return original.apply(this, arguments);
    };
  }
  window.addEventListener('hashchange', () => record(location.href));
  window.alert = () => {};
  window.confirm = () => false;
  window.prompt = () => null;
  window.print = () => {};
  window.open = (u) => { if (u) { record(u); } return null; };
  for (const k of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel', 'RTCSessionDescription']) {
    try { Object.defineProperty(window, k, { value: undefined, configurable: false }); } catch (e) {}
  }
})();`;

export interface PageSnapshot {
  href: string;
  /** The rendered DOM (serialised), capped. */
  html: string;
  /** The visible text, capped (for logged-in markers and login detection). */
  text: string;
  /** Anchors with their text (logout links are known by either), and Angular/Vue router links. */
  links: { href: string; text: string }[];
  /** Routes the app moved to by itself since the page loaded. */
  routes: string[];
  storage: { area: 'local' | 'session'; key: string; value: string }[];
  /** Whether a visible password field is on the page (a login form). */
  passwordField: boolean;
}

/** After rendering: what the crawl reads from the page. */
export const snapshotScript = `(() => {
  const abs = (v) => { try { return new URL(v, document.baseURI).href; } catch (e) { return null; } };
  const links = [];
  for (const a of document.querySelectorAll('a[href], area[href]')) {
    const href = abs(a.getAttribute('href'));
    if (href) { links.push({ href, text: (a.textContent || a.getAttribute('aria-label') || '').trim().slice(0, 80) }); }
  }
  for (const el of document.querySelectorAll('[routerlink], [ng-reflect-router-link], [to][role="link"]')) {
    const raw = el.getAttribute('routerlink') || el.getAttribute('ng-reflect-router-link') || el.getAttribute('to');
    // In a hash-routed app a router link's path is a route after the #, not a path on the server.
    const href = raw ? (/^#!?\\//.test(location.hash) && raw.startsWith('/') ? abs(location.hash.slice(0, location.hash.startsWith('#!') ? 2 : 1) + raw) : abs(raw)) : null;
    if (href) { links.push({ href, text: (el.textContent || '').trim().slice(0, 80) }); }
  }
  const storage = [];
  for (const [area, store] of [['local', window.localStorage], ['session', window.sessionStorage]]) {
    try {
      for (let i = 0; i < store.length && i < 100; i++) {
        const key = store.key(i);
        storage.push({ area, key, value: String(store.getItem(key)).slice(0, 8000) });
      }
    } catch (e) {}
  }
  const visible = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
  return {
    href: location.href,
    html: document.documentElement ? document.documentElement.outerHTML.slice(0, 2000000) : '',
    text: document.body ? document.body.innerText.slice(0, 200000) : '',
    links: links.slice(0, 500),
    routes: (window.__vigilRoutes || []).slice(0, 200),
    storage,
    passwordField: [...document.querySelectorAll('input[type="password"]')].some(visible),
  };
})()`;

/**
 * Fills the login form and submits it. Fields are found by name, id, or a CSS selector; values are set
 * through the native setter and announced with input/change events, as typing would (React, Vue and
 * Angular all listen for those). Answers what it did, or why it could not.
 */
export function loginScript(fields: { selector: string; value: string }[], submit: string | null): string {
  return `(() => {
  const find = (s) => {
    try {
      return document.querySelector('[name="' + CSS.escape(s) + '"]') || document.getElementById(s) || document.querySelector(s);
    } catch (e) { return null; }
  };
  const fields = ${JSON.stringify(fields)};
  let last = null;
  for (const f of fields) {
    const el = find(f.selector);
    if (!el) { return { ok: false, reason: 'no field "' + f.selector + '" on the login page' }; }
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, f.value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    last = el;
  }
  const chosen = ${JSON.stringify(submit)};
  const button = chosen ? find(chosen)
    : (last && last.form && last.form.querySelector('button[type="submit"], input[type="submit"], button:not([type])'))
      || [...document.querySelectorAll('button, input[type="submit"], [role="button"]')].find((b) =>
        /^\\s*(log\\s*in|sign\\s*in|login|signin|submit|continue|anmelden|connexion)\\s*$/i.test(b.textContent || b.value || ''));
  if (button) { button.click(); return { ok: true, reason: 'clicked ' + (button.textContent || button.value || 'submit').trim().slice(0, 40) }; }
  if (last && last.form) { last.form.requestSubmit(); return { ok: true, reason: 'submitted the form' }; }
  return { ok: false, reason: 'no submit button next to the login fields' };
})()`;
}
