import type { Principal } from '../access/principal';
import {
  ForbiddenError,
  NotFoundError,
  ValidationError,
  ViolationCodes,
} from '../hydra/errors/api-errors';
import { identifierFrom } from '../hydra/filters/filter';
import { typeError } from '../hydra/write/denormalizer';
import { readString, requireString } from '../security/body-fields';
import { ADDONS, PLANS, Plan, addonById, planById } from './plan-catalogue';

/**
 * Readers of billing action bodies: wrong types 400, missing or invalid values 422, a team the
 * caller cannot see 404 (like a missing one), a team the caller only belongs to 403 (billing is
 * for owners and admins).
 */

/** `teamId` (id or IRI) of a team the caller administers. */
export function adminTeamFrom(body: Record<string, unknown>, principal: Principal): string {
  const raw = requireString(body, 'teamId').trim();
  const id = identifierFrom(raw);
  if (!id || !principal.teamIds.includes(id)) throw new NotFoundError();
  if (!principal.adminTeamIds.includes(id))
    throw new ForbiddenError('Only owners and admins of the team manage its billing.');
  return id;
}

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
