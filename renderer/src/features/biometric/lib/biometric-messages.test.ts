import { describe, expect, it } from 'vitest';

import { BIOMETRIC_MESSAGES, biometricErrorMessage } from './biometric-messages.ts';

const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });

describe('biometricErrorMessage', () => {
  it('turns a cancelled or timed-out ceremony into the catalogue text', () => {
    expect(
      biometricErrorMessage(named('NotAllowedError', 'The operation either timed out or was not allowed.')),
    ).toBe(BIOMETRIC_MESSAGES.timedOut);
    expect(biometricErrorMessage(named('AbortError'))).toBe(BIOMETRIC_MESSAGES.timedOut);
    expect(
      biometricErrorMessage(Object.assign(new Error('aborted'), { code: 'ERROR_CEREMONY_ABORTED' })),
    ).toBe(BIOMETRIC_MESSAGES.timedOut);
  });

  it('turns an origin or relying-party error into the sandbox restriction message', () => {
    expect(
      biometricErrorMessage(
        named('SecurityError', 'The relying party ID is not a registrable domain suffix'),
      ),
    ).toBe(BIOMETRIC_MESSAGES.sandbox);
    expect(
      biometricErrorMessage(
        new Error('Registration origin "https://x" is not allowed for relying party localhost'),
      ),
    ).toBe(BIOMETRIC_MESSAGES.sandbox);
  });

  it('keeps any other message', () => {
    expect(biometricErrorMessage(new Error('AAL2 required to enroll a new factor'))).toBe(
      'AAL2 required to enroll a new factor',
    );
  });
});
