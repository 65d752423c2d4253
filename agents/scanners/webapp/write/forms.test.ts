import { describe, expect, it } from 'vitest';

import type { Page } from '../crawl.ts';
import { detailedForms, fillValue, takesText } from './forms.ts';
import { formsOf, recordLike, registrationForms, storingForms } from './places.ts';

const start = new URL('http://site.test/');
const page = (path: string, body: string): Page => ({
  url: new URL(path, start),
  response: {
    url: new URL(path, start).href,
    status: 200,
    headers: { 'content-type': 'text/html' },
    body,
    redirects: [],
  },
  facts: { links: [], forms: [], scripts: [], resources: [], generator: null },
  depth: 0,
});

describe('forms as the write checks read them', () => {
  it('keep each field’s type and the page’s values', () => {
    const [form] = detailedForms(
      `<form method="POST" action="/comments#x"><input type="hidden" name="_csrf" value="t0k">
       <input name="author"><input type="email" name="email"><textarea name="body">hi</textarea>
       <select name="topic"><option value="a">A</option><option value="b">B</option></select>
       <input type="checkbox" name="notify"><input type="checkbox" name="public" checked>
       <button name="go" value="1">Send</button></form>`,
      new URL('http://site.test/post/1'),
    );
    expect(form!.action.href).toBe('http://site.test/comments');
    expect(form!.fields).toEqual([
      { name: '_csrf', type: 'hidden', value: 't0k' },
      { name: 'author', type: 'text', value: '' },
      { name: 'email', type: 'email', value: '' },
      { name: 'body', type: 'textarea', value: 'hi' },
      { name: 'topic', type: 'select', value: 'a' },
      { name: 'public', type: 'checkbox', value: 'on' },
      { name: 'go', type: 'submit', value: '1' },
    ]);
    const m = 'vigil-marker-cccccccccccc';
    const fill = (name: string) =>
      fillValue(
        form!.fields.find((f) => f.name === name)!,
        m,
        () => 'TEXT',
      );
    expect([fill('_csrf'), fill('author'), fill('email'), fill('topic'), fill('go')]).toEqual([
      't0k',
      'TEXT',
      `${m}@example.com`,
      'a',
      '1',
    ]);
    expect(form!.fields.filter(takesText).map((f) => f.name)).toEqual(['author', 'body']);
  });

  it('send comment forms, never logins, searches, payments, deletions, uploads or edits of what exists', () => {
    const forms = formsOf([
      page(
        '/',
        `<form method="post" action="/comments"><textarea name="body"></textarea></form>
         <form method="post" action="/feedback"><input name="message"></form>
         <form method="get" action="/list"><input name="q"></form>
         <form method="post" action="/search"><input name="q"></form>
         <form method="post" action="/login"><input name="user"><input type="password" name="pw"></form>
         <form method="post" action="/cart/checkout"><input name="note"></form>
         <form method="post" action="/posts/1/delete"><input name="why"></form>
         <form method="post" action="/avatar" enctype="multipart/form-data"><input type="file" name="f"></form>
         <form method="post" action="/account/profile"><input name="bio"></form>
         <form method="post" action="/posts/7"><input name="title" value="My first post"><textarea name="body"></textarea></form>
         <form method="post" action="https://elsewhere.test/comments"><input name="c"></form>`,
      ),
    ]);
    expect(storingForms(forms, start).map((f) => f.action.pathname)).toEqual(['/comments', '/feedback']);
  });

  it('take sign-up forms for registration, not sign-in or password changes', () => {
    const forms = formsOf([
      page(
        '/signup',
        '<form method="post" action="/api/users"><input name="email"><input type="password" name="password"></form>',
      ),
      page(
        '/join',
        '<form method="post"><input name="n"><input type="password" name="p"><input type="password" name="p2"></form>',
      ),
      page(
        '/login',
        '<form method="post" action="/session"><input name="email"><input type="password" name="password"></form>',
      ),
      page(
        '/me',
        '<form method="post" action="/me/password"><input type="password" name="old"><input type="password" name="new"></form>',
      ),
    ]);
    expect(registrationForms(forms, start).map((f) => f.action.pathname)).toEqual(['/api/users', '/join']);
  });

  it('build a record of a collection’s shape without ids, timestamps, passwords or nested values', () => {
    const m = 'vigil-marker-dddddddddddd';
    expect(
      recordLike(
        {
          id: 3,
          title: 'x',
          email: 'a@b.c',
          stars: 4,
          done: false,
          createdAt: 'then',
          password: 'p',
          tags: ['a'],
        },
        m,
        (key) => `${m}:${key}`,
      ),
    ).toEqual({ title: `${m}:title`, email: `${m}@example.com`, stars: 4, done: false });
    expect(recordLike({ id: 1, count: 3 }, m, () => m)).toBeNull();
  });
});
