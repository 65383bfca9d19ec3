import type { Violation } from '../common/errors/api-errors';
import { MAX_SECRET_LENGTH, mergeSecrets, readParameters } from './credential-input';
import { credentialType } from './credential-types';

const webhook = credentialType('webhook')!;
const smtp = credentialType('smtp')!;
const paths = (violations: Violation[]) => violations.map((v) => v.propertyPath);

describe('credential input', () => {
  describe('readParameters', () => {
    it("keeps the type's parameters, trimmed, dropping empty ones", () => {
      const violations: Violation[] = [];
      expect(
        readParameters(smtp, { username: ' mailer ', port: 587, secure: null }, violations),
      ).toEqual({ username: 'mailer', port: 587 });
      expect(readParameters(smtp, { username: '' }, violations)).toEqual({});
      expect(readParameters(webhook, null, violations)).toEqual({});
      expect(violations).toEqual([]);
    });

    it('reports unknown members and values that do not fit their kind', () => {
      const violations: Violation[] = [];
      readParameters(webhook, { url: 'ftp://x', colour: 'red' }, violations);
      expect(paths(violations)).toEqual(['parameters.url', 'parameters.colour']);
    });

    it('is a 400 when not an object', () => {
      expect(() => readParameters(webhook, ['x'], [])).toThrow();
      expect(() => readParameters(webhook, 'x', [])).toThrow();
    });
  });

  describe('mergeSecrets', () => {
    it('replaces, keeps and removes members', () => {
      const current = { signingSecret: 'old-secret-old-secret' };
      const violations: Violation[] = [];
      mergeSecrets(webhook, current, { signingSecret: 'new-secret-new-secret' }, violations);
      expect(current).toEqual({ signingSecret: 'new-secret-new-secret' });
      mergeSecrets(webhook, current, {}, violations);
      expect(current).toEqual({ signingSecret: 'new-secret-new-secret' });
      mergeSecrets(webhook, current, { signingSecret: null }, violations);
      expect(current).toEqual({});
      expect(violations).toEqual([]);
    });

    it('removes every secret with null', () => {
      const current = { signingSecret: 'old-secret-old-secret' };
      mergeSecrets(webhook, current, null, []);
      expect(current).toEqual({});
    });

    it('refuses unknown members, non-strings, too short and too long ones, never echoing them', () => {
      const cases: Array<[unknown, string]> = [
        [{ password: 'x' }, 'This field was not expected.'],
        [{ signingSecret: 42 }, 'This value should be of type string.'],
        [
          { signingSecret: 'short' },
          'This value is too short. It should have 16 characters or more.',
        ],
        [
          { signingSecret: 'x'.repeat(MAX_SECRET_LENGTH + 1) },
          `This value is too long. It should have ${MAX_SECRET_LENGTH} characters or less.`,
        ],
      ];
      for (const [raw, message] of cases) {
        const current = { signingSecret: 'kept-secret-kept-secret' };
        const violations: Violation[] = [];
        mergeSecrets(webhook, current, raw, violations);
        expect(violations.map((v) => v.message)).toEqual([message]);
        expect(current).toEqual({ signingSecret: 'kept-secret-kept-secret' });
      }
    });
  });
});
