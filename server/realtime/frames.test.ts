import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeBinaryBroadcast, encodeFrame, FrameError } from './frames.ts';

describe('phoenix frames', () => {
  it('decodes the captured kind-3 broadcast push', () => {
    const frame = Buffer.concat([
      Buffer.from([3, 1, 1, 14, 3, 0, 1]),
      Buffer.from('67realtime:room1msg{"hello":"world"}'),
    ]);
    expect(decodeFrame(frame, true, '2.0.0')).toEqual({
      joinRef: '6',
      ref: '7',
      topic: 'realtime:room1',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'msg', payload: { hello: 'world' } },
    });
  });

  it('round-trips both serializers and encodes kind 4', () => {
    const m = { joinRef: '1', ref: null, topic: 't', event: 'e', payload: { a: 1 } };
    expect(decodeFrame(Buffer.from(encodeFrame(m, '2.0.0')), false, '2.0.0')).toEqual(m);
    expect(decodeFrame(Buffer.from(encodeFrame(m, '1.0.0')), false, '1.0.0')).toEqual(m);
    expect([...encodeBinaryBroadcast('t', 'e', Buffer.from([9]))]).toEqual([4, 1, 1, 0, 0, 116, 101, 9]);
  });

  it('rejects malformed frames', () => {
    for (const [data, bin] of [
      ['{', false],
      ['[1,2,3,4,5]', false],
      ['{}', false],
      [Buffer.from([3, 5, 0, 0, 0, 0, 1]), true],
    ] as const) {
      expect(() => decodeFrame(Buffer.from(data), bin, '2.0.0')).toThrow(FrameError);
    }
    expect(() => decodeFrame(Buffer.from([3]), true, '1.0.0')).toThrow(FrameError);
  });
});
