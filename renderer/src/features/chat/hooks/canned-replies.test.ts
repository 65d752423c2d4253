import { describe, expect, it } from 'vitest';

import { CANNED_REPLIES, canSend, pickReply } from './canned-replies.ts';

describe('chat rules', () => {
  it('picks one of the four replies across the whole random range', () => {
    expect(CANNED_REPLIES).toHaveLength(4);
    expect(pickReply(() => 0)).toBe(CANNED_REPLIES[0]);
    expect(pickReply(() => 0.5)).toBe(CANNED_REPLIES[2]);
    expect(pickReply(() => 0.9999)).toBe(CANNED_REPLIES[3]);
    expect(pickReply(() => 1)).toBe(CANNED_REPLIES[3]);
  });
  it('refuses to send when signed out or blank', () => {
    expect(canSend(true, 'hi')).toBe(true);
    expect(canSend(false, 'hi')).toBe(false);
    expect(canSend(true, '   \n')).toBe(false);
  });
});
