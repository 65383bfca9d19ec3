import fc from 'fast-check';
import { chosenSecretProblem } from './secret-strength';

describe('chosenSecretProblem', () => {
  it.each([
    'Zq3vT9pX2mLk7RwA',
    '3f9c1a7e5b2d8046',
    'ups-track-alert-client-secret',
    'sécret-4be1f09a77c3d2e5',
    'correct horse battery staple',
  ])('takes %s', (secret) => {
    expect(chosenSecretProblem(secret)).toBeNull();
  });

  it.each([
    ['', /too short/],
    ['abc', /too short/],
    ['15-characters!!', /too short/],
    ['aaaaaaaaaaaaaaaaaaaa', /too easy to guess/],
    ['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab', /too easy to guess/],
    ['abababababababababab', /too easy to guess/],
    ['1212121212121212', /too easy to guess/],
    ['abcdefabcdefabcdefab', /too easy to guess/],
    ['secret!!secret!!', /too easy to guess/],
    ['0123456789abcdefghij', /too easy to guess/],
    ['zyxwvutsrqponmlkjihg', /too easy to guess/],
    ['abcdefaaaaaaaaaaaaaaaaaaaaaaaaaa', /too easy to guess/],
  ])('refuses %j', (secret, problem) => {
    const message = chosenSecretProblem(secret);
    expect(message).toMatch(problem);
    // Never quotes the secret.
    if (secret.length > 3) expect(message).not.toContain(secret);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(chosenSecretProblem('🔑'.repeat(8))).toMatch(/too short/);
  });

  it('takes random secrets as tools make them (hex, base64, letters and digits)', () => {
    const alphabets = [
      '0123456789abcdef',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
      'abcdefghijklmnopqrstuvwxyz0123456789',
    ];
    const secret = fc
      .tuple(fc.constantFrom(...alphabets), fc.integer({ min: 24, max: 64 }))
      .chain(([alphabet, length]) =>
        fc
          .array(fc.constantFrom(...alphabet), { minLength: length, maxLength: length })
          .map((chars) => chars.join('')),
      );
    // A fixed seed: the same secrets every run (a random one may, rarely, look like a pattern).
    fc.assert(
      fc.property(secret, (s) => chosenSecretProblem(s) === null),
      { seed: 22, numRuns: 2000 },
    );
  });
});
