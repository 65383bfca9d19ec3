import { typeError } from '../hydra/write/denormalizer';
import { ViolationCodes, type Violation } from '../common/errors/api-errors';

export interface DropshipperSettings {
  enabled: boolean;
  blacklistCarriers: string[] | null;
  originCountryReplacement: string | null;
  stopWords: string | null;
  hideHieroglyphs: boolean;
  displayPlaceholderCheckpoints: boolean;
}

export const DEFAULT_DROPSHIPPER_SETTINGS: DropshipperSettings = {
  enabled: false,
  blacklistCarriers: null,
  originCountryReplacement: null,
  stopWords: null,
  hideHieroglyphs: false,
  displayPlaceholderCheckpoints: false,
};

/**
 * The stored form of dropshipper settings: the reference service's members only (others are
 * dropped), missing ones at their defaults. Wrong types are 400 like any body attribute;
 * values out of bounds are violations.
 */
export function normalizeDropshipperSettings(
  input: Record<string, unknown>,
  path = 'dropshipperSettings',
): { value: DropshipperSettings; violations: Violation[] } {
  const value: DropshipperSettings = { ...DEFAULT_DROPSHIPPER_SETTINGS };
  const violations: Violation[] = [];
  for (const key of ['enabled', 'hideHieroglyphs', 'displayPlaceholderCheckpoints'] as const) {
    const v = input[key];
    if (v === undefined) continue;
    if (typeof v !== 'boolean') throw typeError(`${path}.${key}`, 'bool', v);
    value[key] = v;
  }
  for (const key of ['originCountryReplacement', 'stopWords'] as const) {
    const v = input[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw typeError(`${path}.${key}`, 'string', v);
    value[key] = v;
  }
  if (value.originCountryReplacement !== null) {
    value.originCountryReplacement = value.originCountryReplacement.toUpperCase();
    if (!/^[A-Z]{2}$/.test(value.originCountryReplacement))
      violations.push({
        propertyPath: `${path}.originCountryReplacement`,
        message: 'This value is not a valid country.',
        code: ViolationCodes.invalid,
      });
  }
  const carriers = input.blacklistCarriers;
  if (carriers !== undefined && carriers !== null) {
    if (!Array.isArray(carriers)) throw typeError(`${path}.blacklistCarriers`, 'array', carriers);
    const bad = carriers.find((c) => typeof c !== 'string');
    if (bad !== undefined) throw typeError(`${path}.blacklistCarriers[]`, 'string', bad);
    value.blacklistCarriers = carriers as string[];
  }
  return { value, violations };
}
