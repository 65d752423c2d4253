import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../../core/http-client.ts';
import type { Endpoint } from '../crawl.ts';
import type { Carried, NosqlSender } from './nosql.ts';
import {
  excerptWhereDiffers,
  findNosqlError,
  nosqlEndpointFindings,
  nosqlPlan,
  nosqlRequest,
  shapeOf,
} from './nosql.ts';

const response = (body: string, status = 200): HttpResponse => ({
  url: 'http://127.0.0.1/',
  status,
  headers: {},
  body,
  redirects: [],
});

const search: Endpoint = {
  url: new URL('http://127.0.0.1:8080/search?category=books&page=1'),
  method: 'GET',
  params: ['category', 'page'],
};
const login: Endpoint = {
  url: new URL('http://127.0.0.1:8080/api/login'),
  method: 'POST',
  params: ['user', 'pass', 'remember'],
  json: { user: 'a', pass: 'b', remember: true },
};
const formLogin: Endpoint = {
  url: new URL('http://127.0.0.1:8080/login'),
  method: 'POST',
  params: ['user', 'pass'],
};

/** A filter as a MongoDB-style engine applies it to one field: a literal, or $ne/$gt/$in. */
function matches(field: string, value: Carried): boolean {
  if ('literal' in value) {
    return field === value.literal;
  }
  switch (value.operator) {
    case '$ne':
      return field !== value.operand;
    case '$gt':
      return field > (value.operand as string);
    case '$in':
      return (value.operand as string[]).includes(field);
  }
}

/** A sender from a synchronous app. */
const app =
  (answer: (carried: Record<string, Carried>) => HttpResponse): NosqlSender =>
  (carried) =>
    Promise.resolve(answer(carried));

const products = ['books', 'games', 'music'];
/** A search that filters on `category` as the request parsed it (the vulnerable app). */
const vulnerableSearch: NosqlSender = app((carried) => {
  const filter = carried.category ?? { literal: 'books' };
  const found = products.filter((p) => matches(p, filter));
  return response(`<h1>Results</h1><ul>${found.map((p) => `<li>${p}</li>`).join('')}</ul>`);
});

describe('nosqlRequest and shapeOf', () => {
  it('writes query operators in bracket notation, keeping the other parameters', () => {
    const request = nosqlRequest(search, {
      category: { operator: '$ne', operand: 'x' },
    });
    expect(request.method).toBe('GET');
    expect(decodeURIComponent(request.url.search)).toBe('?category[$ne]=x&page=1');
    const list = nosqlRequest(search, { category: { operator: '$in', operand: ['y'] } });
    expect(decodeURIComponent(list.url.search)).toBe('?category[$in][]=y&page=1');
    expect(shapeOf(search, { category: { operator: '$ne', operand: 'vabcdef1234' } })).toBe(
      'category[$ne]=<random>',
    );
  });

  it('writes form operators in the body', () => {
    const request = nosqlRequest(formLogin, {
      user: { operator: '$gt', operand: '' },
      pass: { literal: 'z' },
    });
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(decodeURIComponent(request.body!)).toBe('user[$gt]=&pass=z');
  });

  it('writes JSON operators as objects in the app’s own body', () => {
    const request = nosqlRequest(login, {
      user: { operator: '$ne', operand: 'x' },
      pass: { operator: '$in', operand: [] },
    });
    expect(JSON.parse(request.body!)).toEqual({ user: { $ne: 'x' }, pass: { $in: [] }, remember: true });
    expect(shapeOf(login, { user: { literal: 'vabcdef1234' } })).toBe('{"user": "<random>"}');
  });
});

describe('findNosqlError', () => {
  it.each([
    ['MongoServerError: unknown operator: $foo'],
    ['CastError: Cast to string failed for value "{ \'$ne\': \'x\' }" (type Object) at path "user"'],
    ['BSONError: invalid'],
    ['{"error":"unknown operator $ne"}'],
  ])('finds %s', (body) => {
    expect(findNosqlError(body)).not.toBeNull();
  });

  it('ignores ordinary pages', () => {
    expect(findNosqlError('<p>We store your orders in MongoDB; 3 operators online</p>')).toBeNull();
  });
});

describe('nosqlEndpointFindings', () => {
  it('reports a search that takes $ne as an operator, with the shapes and what differed', async () => {
    const findings = await nosqlEndpointFindings(search, ['category', 'page'], vulnerableSearch);
    expect(findings.map((f) => f.location)).toEqual(['http://127.0.0.1:8080/search?category=']);
    expect(findings[0]!.rule_id).toBe('web.nosqli');
    expect(findings[0]!.evidence).toContain('category[$ne]=<random> answered HTTP 200');
    expect(findings[0]!.evidence).toContain('unlike category=<random>');
    expect(findings[0]!.evidence).toContain('category[$in][]=<random> answered like the literal');
  });

  it('stays silent when the value is cast to a string', async () => {
    const twin: NosqlSender = app((carried) => {
      const value = carried.category ?? { literal: 'books' };
      const text = 'literal' in value ? value.literal : '[object Object]';
      return response(`<ul>${products.filter((p) => p === text).join('')}</ul>`);
    });
    expect(await nosqlEndpointFindings(search, ['category', 'page'], twin)).toEqual([]);
  });

  it('stays silent on an app that refuses any object (the operators answer alike)', async () => {
    const strict: NosqlSender = app((carried) =>
      Object.values(carried).some((v) => !('literal' in v))
        ? response('{"error":"category must be a string"}', 400)
        : response('{"items":[]}'),
    );
    expect(await nosqlEndpointFindings(search, ['category', 'page'], strict)).toEqual([]);
  });

  it('stays silent on a page that changes by chance (chance differences are not findings)', async () => {
    for (let run = 0; run < 10; run++) {
      const flaky: NosqlSender = app(() =>
        response(Math.random() < 0.5 ? '<p>tip: read more</p>' : '<p>offer: buy two get one</p>'),
      );
      expect(await nosqlEndpointFindings(search, ['category', 'page'], flaky)).toEqual([]);
    }
  });

  it('tries a login’s fields together and reports those the bypass needs', async () => {
    const accounts = [{ user: 'admin', pass: 'hunter2' }];
    const server: NosqlSender = app((carried) => {
      const user = carried.user ?? { literal: 'a' };
      const pass = carried.pass ?? { literal: 'b' };
      const found = accounts.find((a) => matches(a.user, user) && matches(a.pass, pass));
      return found
        ? response(`{"welcome":"${found.user}","token":"t"}`)
        : response('{"error":"invalid login"}', 401);
    });
    const findings = await nosqlEndpointFindings(login, ['user', 'pass', 'remember'], server);
    expect(findings.map((f) => f.location).sort()).toEqual([
      'POST http://127.0.0.1:8080/api/login?pass=',
      'POST http://127.0.0.1:8080/api/login?user=',
    ]);
    expect(findings[0]!.evidence).toContain('"user": {"$ne": "<random>"}');
    expect(findings[0]!.evidence).toContain('HTTP 401');
  });

  it('keeps an anti-forgery token at its value when the fields are tried together', async () => {
    const guarded: Endpoint = { ...formLogin, params: ['user', 'pass', 'csrf_token'] };
    const sent: Record<string, Carried>[] = [];
    const server: NosqlSender = app((carried) => {
      sent.push(carried);
      const user = carried.user ?? { literal: 'a' };
      const pass = carried.pass ?? { literal: 'b' };
      return matches('admin', user) && matches('pw', pass) ? response('welcome admin') : response('no', 401);
    });
    const findings = await nosqlEndpointFindings(guarded, guarded.params, server);
    expect(findings.map((f) => f.location).sort()).toEqual([
      'POST http://127.0.0.1:8080/login?pass=',
      'POST http://127.0.0.1:8080/login?user=',
    ]);
    expect(sent.filter((c) => Object.keys(c).length > 1).every((c) => !('csrf_token' in c))).toBe(true);
  });

  it('reports a database error the operator causes and the literal does not', async () => {
    const server: NosqlSender = app((carried) =>
      Object.values(carried).some((v) => !('literal' in v))
        ? response('MongoServerError: unknown operator: $ne', 500)
        : response('no such user', 404),
    );
    const findings = await nosqlEndpointFindings(formLogin, ['user', 'pass'], server);
    expect(findings).toHaveLength(2);
    expect(findings[0]!.evidence).toContain('database error "unknown operator: $ne"');
  });

  it('does not report an error the page shows anyway', async () => {
    const server: NosqlSender = app(() => response('MongoError: connection pool closed', 503));
    expect(await nosqlEndpointFindings(formLogin, ['user', 'pass'], server)).toEqual([]);
  });
});

describe('nosqlPlan', () => {
  it('groups the bounded parameters by endpoint and stops where the request budget ends', () => {
    const endpoints: Endpoint[] = [search, login, formLogin];
    const all = nosqlPlan(endpoints, 40, 10_000);
    expect(all.targets.map(([e, params]) => [e.url.pathname, [...params].sort()])).toEqual([
      ['/search', ['category', 'page']],
      ['/api/login', ['pass', 'remember', 'user']],
      ['/login', ['pass', 'user']],
    ]);
    expect(all.skipped).toBe(0);
    // /search costs (2 + 1) × 4 = 12, /api/login (3 + 1) × 4 = 16: 20 requests pay for the first only.
    const poor = nosqlPlan(endpoints, 40, 20);
    expect(poor.targets.map(([e]) => e.url.pathname)).toEqual(['/search']);
    expect(poor.skipped).toBe(2);
    // The parameter bound is injectionTargets' (its order: parameters that carry a path, `page`, first).
    const bounded = nosqlPlan(endpoints, 3, 10_000).targets;
    expect(bounded.flatMap(([, params]) => params)).toEqual(['page', 'category', 'user']);
  });
});

describe('excerptWhereDiffers', () => {
  it('starts shortly before the first difference', () => {
    expect(excerptWhereDiffers('<ul><li>books</li><li>games</li></ul>', '<ul></ul>')).toBe(
      '<ul><li>books</li><li>games</li></ul>',
    );
    expect(excerptWhereDiffers(`${'x'.repeat(100)}welcome admin`, `${'x'.repeat(100)}invalid`)).toBe(
      'xxxxxxxxxxwelcome admin',
    );
  });
});
