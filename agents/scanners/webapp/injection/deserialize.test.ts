import { describe, expect, it } from 'vitest';

import type { HttpResponse } from '../../core/http-client.ts';
import { delayPayloads, nodeSerializeEcho, serialFormat, sleepPickle, withFunction } from './deserialize.ts';
import type { EchoProbe } from './deserialize.ts';
import type { TimedProbe } from './delay.ts';

// Python 3.11's pickle.dumps({'items': [], 'currency': 'EUR'}), protocol 4 in base64 and protocol 2 in
// URL-safe base64.
const pickle4 = 'gASVIAAAAAAAAAB9lCiMBWl0ZW1zlF2UjAhjdXJyZW5jeZSMA0VVUpR1Lg==';
const pickle2UrlSafe = 'gAJ9cQAoWAUAAABpdGVtc3EBXXECWAgAAABjdXJyZW5jeXEDWAMAAABFVVJxBHUu';
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('serialFormat', () => {
  it('names JSON objects and arrays, raw or in base64 (either alphabet, padded or not), and pickles', () => {
    expect(serialFormat('{"theme":"dark"}')).toBe('json');
    expect(serialFormat('[{"id":1}]')).toBe('json');
    expect(serialFormat(b64('{"username":"guest","country":"nl"}'))).toBe('base64-json');
    expect(serialFormat(b64('{"a":"??>>"}').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))).toBe(
      'base64-json',
    );
    expect(serialFormat(pickle4)).toBe('base64-pickle');
    expect(serialFormat(pickle2UrlSafe)).toBe('base64-pickle');
  });

  it('leaves alone what holds no serialized data: words, numbers, base64 of text, broken JSON, huge values', () => {
    for (const value of ['hello', '12345678', '42', b64('just some words'), '{"a":', '"quoted"', 'null']) {
      expect(serialFormat(value)).toBeNull();
    }
    expect(serialFormat(`{"a":"${'x'.repeat(9000)}"}`)).toBeNull();
    expect(serialFormat(b64(`{"a":"${'x'.repeat(7000)}"}`))).toBeNull();
  });
});

describe('withFunction', () => {
  const fn = '_$$ND_FUNC$$_function(){}()';
  it('puts the function in every string of the object, three levels down, keeping the rest', () => {
    const out = JSON.parse(
      withFunction(
        '{"username":"guest","age":3,"address":{"city":"Delft","geo":[1,2]},"tags":["a"]}',
        'function(){}()',
      ),
    ) as Record<string, unknown>;
    expect(out).toEqual({ username: fn, age: 3, address: { city: fn, geo: [1, 2] }, tags: [fn] });
  });

  it('adds a key of its own to an object without strings, and wraps what is not an object', () => {
    expect(JSON.parse(withFunction('{"n":1}', 'function(){}()'))).toEqual({ n: 1, vigil: fn });
    expect(JSON.parse(withFunction('[1,2]', 'function(){}()'))).toEqual({ vigil: fn });
    expect(JSON.parse(withFunction('not json', 'function(){}()'))).toEqual({ vigil: fn });
  });

  it('stops at sixteen strings', () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v']));
    const out = JSON.parse(withFunction(JSON.stringify(many), 'function(){}()')) as Record<string, string>;
    expect(Object.values(out).filter((v) => v === fn)).toHaveLength(16);
  });
});

describe('delayPayloads', () => {
  const probe = { param: 'p', original: '', numeric: '1' } as unknown as TimedProbe;
  const labels = (groups: ReturnType<typeof delayPayloads>) =>
    groups.map((g) => g.map((p) => p.label.split(' ')[0]));

  it("keeps node's busy wait for consented scans, apart from the sleeps it would hold up", () => {
    expect(labels(delayPayloads('json', '{}', false))).toEqual([]);
    expect(labels(delayPayloads('json', '{}', true))).toEqual([['node-serialize']]);
    expect(labels(delayPayloads('base64-pickle', pickle4, false))).toEqual([['Python']]);
    expect(labels(delayPayloads('file', '', true))).toEqual([['node-serialize'], ['Python', 'PyYAML']]);
  });

  it('encodes each payload as the original was encoded, in its alphabet', () => {
    const first = (groups: ReturnType<typeof delayPayloads>) => {
      const payload = groups[0]?.[0];
      if (!payload) {
        throw new Error('no payload');
      }
      return (seconds: number) => payload.build(probe, seconds);
    };
    expect(Buffer.from(first(delayPayloads('base64-pickle', pickle4, false))(3), 'base64').toString()).toBe(
      sleepPickle(3),
    );
    expect(first(delayPayloads('base64-pickle', pickle2UrlSafe.replace('A', '-'), false))(2)).not.toMatch(
      /[+/=]/,
    );
    const node = first(delayPayloads('base64-json', b64('{"username":"guest"}'), true))(2);
    const sent = JSON.parse(Buffer.from(node, 'base64').toString()) as { username: string };
    expect(sent.username).toBe('_$$ND_FUNC$$_function(){var e=Date.now()+2000;while(Date.now()<e){}}()');
  });

  it('writes a pickle that calls time.sleep with whole seconds', () => {
    expect(sleepPickle(4)).toBe('ctime\nsleep\n(I4\ntR.');
  });
});

describe('nodeSerializeEcho', () => {
  const answer = (body: string) =>
    ({ status: 200, body, headers: {}, url: 'http://app/' }) as unknown as HttpResponse;
  /** An app that runs the function's arithmetic (as node-serialize would), or only echoes what it got. */
  const app = (runs: boolean): EchoProbe & { sent: string[] } => {
    const sent: string[] = [];
    return {
      sent,
      param: 'prefs',
      location: 'http://app/preferences?prefs=',
      original: '{"theme":"dark"}',
      originalOnce: () => Promise.resolve(answer('<p>Theme: dark</p>')),
      request: (value: string) => {
        sent.push(value);
        const code = /return (\d+)\*(\d+)\+'-'\+typeof process/.exec(value);
        return Promise.resolve(
          answer(
            runs && code
              ? `<p>Theme: ${Number(code[1]) * Number(code[2])}-object</p>`
              : `<p>Theme: ${value}</p>`,
          ),
        );
      },
    };
  };

  it('reports a function whose result comes back computed, twice with fresh numbers', async () => {
    const probe = app(true);
    const finding = await nodeSerializeEcho(probe, 'json');
    expect(finding?.rule_id).toBe('web.deserialization');
    expect(finding?.evidence).toMatch(
      /^prefs sent as JSON .*returned came back computed, \d+-object and, with fresh numbers, \d+-object/,
    );
    expect(probe.sent).toHaveLength(2);
  });

  it('reports nothing where the payload only comes back as it was sent', async () => {
    const probe = app(false);
    expect(await nodeSerializeEcho(probe, 'json')).toBeNull();
    expect(probe.sent).toHaveLength(2);
  });
});
