// Whether a session must pass its second factor before it may act: a password-only (aal1) token of a user
// with a verified factor. The database's row-level security and the edge functions refuse such a token
// (docs/product.md §15), so the app sends it to /auth/mfa and sends nothing else with it. Asked of the server once per
// token, shared by every caller: the stored session's copy of the factors is stale when a factor was added
// in another browser after this session signed in.
import { supabase } from '../supabase.ts';

/** The verdicts of the last few tokens (a refresh or the aal2 upgrade brings a new one). */
const verdicts = new Map<string, Promise<boolean>>();
const KEPT = 4;

async function ask(token: string): Promise<boolean> {
  const mfa = (await supabase()).auth.mfa;
  const fresh = await mfa.getAuthenticatorAssuranceLevel(token);
  // Should the server be out of reach, the stored copy of the factors still decides.
  const { data } = fresh.data ? fresh : await mfa.getAuthenticatorAssuranceLevel();
  return data?.currentLevel === 'aal1' && data.nextLevel === 'aal2';
}

export function needsSecondStep(token: string): Promise<boolean> {
  let verdict = verdicts.get(token);
  if (!verdict) {
    verdict = ask(token).catch((e: unknown) => {
      // A failed check is not remembered: the next caller asks again.
      verdicts.delete(token);
      throw e;
    });
    verdicts.set(token, verdict);
    for (const old of verdicts.keys()) {
      if (verdicts.size <= KEPT) {
        break;
      }
      verdicts.delete(old);
    }
  }
  return verdict;
}
