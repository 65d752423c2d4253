import { describe, expect, it } from 'vitest';

import { isDestructive, isLogout } from './logout.ts';

const u = (path: string) => new URL(path, 'https://shop.example');

describe('isLogout', () => {
  it.each([
    '/logout',
    '/log-out',
    '/users/sign_out',
    '/account/signout?next=/',
    '/api/auth/logout',
    '/session/end-session',
    '/index.php?action=logoff',
    '/abmelden',
    '/Logout.aspx',
  ])('knows %s for a logout link', (path) => {
    expect(isLogout(u(path))).toBe(true);
  });

  it('knows logout buttons and links by their text, and DELETE /session', () => {
    expect(isLogout(u('/account/end'), 'GET', 'Sign out')).toBe(true);
    expect(isLogout(u('/x'), 'POST', '  Log out ')).toBe(true);
    expect(isLogout(u('/session'), 'DELETE')).toBe(true);
    expect(isLogout(u('/users/sessions/current'), 'DELETE')).toBe(true);
  });

  it.each([
    ['/blog/how-we-logged-outages', ''],
    ['/catalog', ''],
    ['/session', ''],
    ['/products/signed-outsole', ''],
    ['/about', 'Logout policy explained in detail'],
  ])('leaves %s alone', (path, text) => {
    expect(isLogout(u(path), 'GET', text)).toBe(false);
  });
});

describe('isDestructive', () => {
  it.each([
    ['/account/delete', 'POST'],
    ['/api/users/2', 'DELETE'],
    ['/items/5/remove', 'GET'],
    ['/settings/close-account', 'POST'],
    ['/billing?action=cancel_subscription', 'POST'],
    ['/admin/purge-cache', 'POST'],
    // Names the file probes derive from a known URL: a router may still send them to the action.
    ['/account/delete~', 'GET'],
    ['/account/%23delete%23', 'GET'],
    ['/account/delete.bak', 'GET'],
    ['/account/Copy%20of%20delete', 'GET'],
    ['/api/deleteAccount', 'POST'],
    ['/api/user/closeAccount', 'POST'],
  ])('knows %s (%s) would destroy data', (path, method) => {
    expect(isDestructive(u(path), method)).toBe(true);
  });

  it.each([
    ['/products/removable-lid'],
    ['/api/orders'],
    ['/deleted-items-policy'],
    ['/account'],
    ['/docs/removeable%20parts'],
    ['/undeleteHistory'],
  ])('leaves %s alone', (path) => {
    expect(isDestructive(u(path), 'POST')).toBe(false);
  });
});
