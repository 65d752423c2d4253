import { describe, expect, it } from 'vitest';
import { closest, fuzzyMatches, NAME_HINT_MIN_SCORE } from './fuzzy.ts';

// The behaviours of Data.FuzzySet 0.2 that PostgREST's "Perhaps you meant" hints depend on.
describe('fuzzy suggestions as PostgREST makes them', () => {
  it('answers an entry equal to the value (ignoring case) alone, with score 1', () => {
    expect(fuzzyMatches(['users', 'user_profiles', 'Users2'], 'USERS')).toEqual([[1, 'users']]);
  });

  it('ranks by the Levenshtein similarity of the names as written, underscores included', () => {
    // Without underscores "messagetexts" is nearer "messages"; as written, "message_authors" is nearer.
    expect(closest(['messages', 'message_authors', 'users'], 'message_texts')).toBe('message_authors');
  });

  it('keeps only candidates from the minimum score, 0.75 for table and function names', () => {
    expect(closest(['active_users', 'messages'], 'function_returning_set_of_rows')).toBeNull();
    expect(
      closest(
        ['polymorphic_function_with_unnamed_text'],
        'polymorphic_function_with_unnamed_integer',
        NAME_HINT_MIN_SCORE,
      ),
    ).toBe('polymorphic_function_with_unnamed_text');
    expect(closest(['search_messages'], 'serch_messages', NAME_HINT_MIN_SCORE)).toBe('search_messages');
    expect(closest(['channels'], 'chanel_stats', NAME_HINT_MIN_SCORE)).toBeNull();
  });

  it('tries 2-grams when no 3-gram candidate is left', () => {
    // "-ab-" shares no 3-gram with "-xaby-", but the 2-gram "ab"; with "-ba-" it shares neither.
    expect(closest(['ab'], 'ba')).toBeNull();
    expect(fuzzyMatches(['xaby'], 'ab').map(([, c]) => c)).toEqual(['xaby']);
    expect(fuzzyMatches([], 'anything')).toEqual([]);
  });
});
