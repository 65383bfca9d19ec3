import { BadRequestError } from '../common/errors/api-errors';
import { normalizeDropshipperSettings } from './dropshipper-settings';

describe('normalizeDropshipperSettings', () => {
  it('fills defaults and drops unknown members', () => {
    expect(normalizeDropshipperSettings({ enabled: true, junk: 1 })).toEqual({
      value: {
        enabled: true,
        blacklistCarriers: null,
        originCountryReplacement: null,
        stopWords: null,
        hideHieroglyphs: false,
        displayPlaceholderCheckpoints: false,
      },
      violations: [],
    });
  });

  it('upper-cases and checks the replacement country', () => {
    expect(normalizeDropshipperSettings({ originCountryReplacement: 'us' }).value).toMatchObject({
      originCountryReplacement: 'US',
    });
    expect(
      normalizeDropshipperSettings({ originCountryReplacement: 'USA' }).violations[0].propertyPath,
    ).toBe('dropshipperSettings.originCountryReplacement');
  });

  it('answers 400 for wrong types', () => {
    expect(() => normalizeDropshipperSettings({ enabled: 'yes' })).toThrow(BadRequestError);
    expect(() => normalizeDropshipperSettings({ blacklistCarriers: [1] })).toThrow(
      'The type of the "dropshipperSettings.blacklistCarriers[]" attribute must be "string", "int" given.',
    );
  });
});
