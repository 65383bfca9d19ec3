import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { typeError } from '../hydra/write/denormalizer';
import { readString, requireString } from '../security/body-fields';
import { ADDONS, PLANS, Plan, addonById, planById } from './plan-catalogue';

/**
 * Readers of billing action values beyond their DTO's types (billing.input.ts): plans and
 * add-ons of the catalogue, URLs. The team is the declared `team:admin` target.
 */

/** `planId` of the catalogue; `paid` refuses the free plan. */
export function planFrom(body: Record<string, unknown>, options: { paid: boolean }): Plan {
  const raw = requireString(body, 'planId').trim();
  const plan = planById(raw);
  const allowed = Object.values(PLANS).filter((p) => !options.paid || p.type === 'paid');
  if (!plan || !allowed.includes(plan)) {
    throw ValidationError.of(
      'planId',
      `The plan "${raw}" is not available. Choose one of: ${allowed.map((p) => p.id).join(', ')}.`,
      ViolationCodes.choice,
    );
  }
  return plan;
}

/** `addonsQtyByKey`: `{addonKey: quantity}` of catalogue add-ons; absent or null is none. */
export function addonsFrom(body: Record<string, unknown>): Record<string, number> {
  const raw = body.addonsQtyByKey;
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw typeError('addonsQtyByKey', 'array', raw);
  const out: Record<string, number> = {};
  for (const [key, qty] of Object.entries(raw as Record<string, unknown>)) {
    if (!addonById(key)) {
      throw ValidationError.of(
        `addonsQtyByKey.${key}`,
        `Unknown add-on. Add-ons: ${Object.keys(ADDONS).join(', ')}.`,
        ViolationCodes.choice,
      );
    }
    if (typeof qty !== 'number' || !Number.isInteger(qty))
      throw typeError(`addonsQtyByKey.${key}`, 'int', qty);
    if (qty < 0 || qty > 1000) {
      throw ValidationError.of(
        `addonsQtyByKey.${key}`,
        'This value should be between 0 and 1000.',
        ViolationCodes.range,
      );
    }
    if (qty > 0) out[key] = qty;
  }
  return out;
}

/** An absolute http(s) URL, or null when absent and not `required`. */
export function urlFrom(
  body: Record<string, unknown>,
  property: string,
  required = false,
): string | null {
  const raw = required ? requireString(body, property) : readString(body, property);
  if (raw === null || raw.trim() === '') return null;
  const value = raw.trim();
  let ok = false;
  try {
    const url = new URL(value);
    ok = (url.protocol === 'https:' || url.protocol === 'http:') && Boolean(url.hostname);
  } catch {
    ok = false;
  }
  if (!ok || value.length > 1000)
    throw ValidationError.of(property, 'This value is not a valid URL.', ViolationCodes.invalid);
  return value;
}
