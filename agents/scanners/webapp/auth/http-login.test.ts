import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../../core/http-client.ts';
import { looksLoggedIn, readForms } from './http-login.ts';

const page = (body: string, url = 'https://shop.example/account', status = 200): HttpResponse => ({
  url,
  status,
  headers: {},
  body,
  redirects: [],
});

describe('form login without a browser', () => {
  it('reads every form with its inputs, hidden values kept', () => {
    const forms = readForms(`<form action="/search"><input name="q"></form>
      <form method="post" action="/session"><input type="hidden" name="_csrf" value="t0k&amp;en">
      <input id="user" name="login[email]"><input type="password" name="login[password]">
      <input type="checkbox" name="remember" value="1"><button name="go">Sign in</button></form>`);
    expect(forms).toHaveLength(2);
    expect(forms[1]).toEqual({
      action: '/session',
      method: 'POST',
      inputs: [
        { name: '_csrf', id: '', type: 'hidden', value: 't0k&en' },
        { name: 'login[email]', id: 'user', type: 'text', value: '' },
        { name: 'login[password]', id: '', type: 'password', value: '' },
        { name: 'remember', id: '', type: 'checkbox', value: '1' },
      ],
    });
  });

  it('counts a login as working by its marker, else by the password field being gone', () => {
    expect(looksLoggedIn(page('<a href="/logout">Log out</a>'), 'Log out', '/login')).toBe(true);
    expect(looksLoggedIn(page('<p>Welcome</p>'), 'Log out', '/login')).toBe(false);
    expect(looksLoggedIn(page('<p>Welcome</p>'), undefined, '/login')).toBe(true);
    expect(looksLoggedIn(page('<input type="password" name="p">'), undefined, '/login')).toBe(false);
    // The login page still showing its form is a failed login, marker or not; the same address showing
    // the home page once logged in (a form at "/") is a working one.
    const form = '<form><input name="u"><input type="password" name="p"></form>';
    expect(looksLoggedIn(page(`Log out ${form}`, 'https://shop.example/login'), 'Log out', '/login')).toBe(
      false,
    );
    expect(looksLoggedIn(page('hello! Log out', 'https://shop.example/'), 'Log out', '/')).toBe(true);
    expect(looksLoggedIn(page(form, 'https://shop.example/'), undefined, '/')).toBe(false);
    expect(looksLoggedIn(page('Log out', 'https://shop.example/a', 500), 'Log out', '/login')).toBe(false);
  });
});
