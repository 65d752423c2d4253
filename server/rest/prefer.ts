import { RestError } from './errors.ts';

/** The `Prefer` header, which supabase-js sends comma-joined. */
export interface Preferences {
  return: 'minimal' | 'representation' | 'headers-only' | null;
  count: 'exact' | 'planned' | 'estimated' | null;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missing: 'default' | 'null' | null;
  tx: 'commit' | 'rollback' | null;
  handling: 'strict' | 'lenient' | null;
  maxAffected: number | null;
  /** The preferences as given, for Preference-Applied. */
  applied: string[];
}

const ALLOWED: Record<string, readonly string[]> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  tx: ['commit', 'rollback'],
  handling: ['strict', 'lenient'],
};

export function parsePrefer(header: string | undefined): Preferences {
  const prefs: Preferences = {
    return: null,
    count: null,
    resolution: null,
    missing: null,
    tx: null,
    handling: null,
    maxAffected: null,
    applied: [],
  };
  const invalid: string[] = [];
  for (const raw of (header ?? '').split(',')) {
    const item = raw.trim();
    if (item === '') {
      continue;
    }
    const [key = '', value = ''] = item.split('=', 2).map((s) => s.trim());
    if (key === 'max-affected' && /^\d{1,15}$/.test(value)) {
      prefs.maxAffected = Number(value);
      prefs.applied.push(item);
    } else if (ALLOWED[key]?.includes(value)) {
      (prefs as unknown as Record<string, string>)[key] = value;
      prefs.applied.push(`${key}=${value}`);
    } else {
      invalid.push(item);
    }
  }
  // handling=strict: PostgREST refuses preferences it does not understand instead of ignoring them.
  if (prefs.handling === 'strict' && invalid.length > 0) {
    throw new RestError(
      'PGRST122',
      'Invalid preferences given with handling=strict',
      `Invalid preferences: ${invalid.join(', ')}`,
    );
  }
  return prefs;
}
