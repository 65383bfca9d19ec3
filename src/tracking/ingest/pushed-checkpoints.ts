import { BadRequestError, type Violation, ViolationCodes } from '../../common/errors/api-errors';
import { typeError } from '../../hydra/write/denormalizer';
import { normalizeCountryIso2 } from '../engine';
import type { ProviderCheckpoint } from '../providers';
import { isTrackingStatusCode, TRACKING_STATUS_CODES } from '../statuses';

export const MAX_PUSHED_CHECKPOINTS = 500;
/** Pushed ids live in their own namespace, apart from the ids providers report. */
export const PUSH_ID_PREFIX = 'push:';

export interface ParsedCheckpoints {
  checkpoints: ProviderCheckpoint[];
  violations: Violation[];
}

/**
 * Reads the `checkpoints` of an ingest request. Wrong JSON types are a 400 (thrown, API
 * Platform's message); wrong values are violations at `checkpoints[i].<field>` (422).
 *
 * Each item: `id` (required, the sender's id: pushing the same id again updates, never
 * duplicates), `checkpointDate` (or `date`; ISO 8601), `status` (a tracking status code),
 * `info`, `location`, `countryIso2`, `carrier` (default: the shipment's carrier),
 * `rel` (origin | destination).
 */
export function parsePushedCheckpoints(value: unknown, defaultCarrier: string): ParsedCheckpoints {
  if (!Array.isArray(value)) throw typeError('checkpoints', 'array', value);
  const violations: Violation[] = [];
  if (value.length === 0) {
    violations.push({
      propertyPath: 'checkpoints',
      message: 'This collection should contain 1 element or more.',
      code: ViolationCodes.tooShort,
    });
  }
  if (value.length > MAX_PUSHED_CHECKPOINTS) {
    throw new BadRequestError(
      `At most ${MAX_PUSHED_CHECKPOINTS} checkpoints can be pushed in one request.`,
    );
  }
  const checkpoints: ProviderCheckpoint[] = [];
  value.forEach((item, i) => {
    const at = `checkpoints[${i}]`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw typeError(at, 'array', item);
    }
    const c = item as Record<string, unknown>;
    const text = (field: string, max: number): string | null => {
      const v = c[field];
      if (v === undefined || v === null) return null;
      if (typeof v !== 'string') throw typeError(`${at}.${field}`, 'string', v);
      if ([...v].length > max) {
        violations.push({
          propertyPath: `${at}.${field}`,
          message: `This value is too long. It should have ${max} characters or less.`,
          code: ViolationCodes.tooLong,
        });
      }
      return v;
    };
    const blank = (field: string) =>
      violations.push({
        propertyPath: `${at}.${field}`,
        message: 'This value should not be blank.',
        code: ViolationCodes.notBlank,
      });

    const id = text('id', 255);
    if (id === null || id.trim() === '') blank('id');

    const dateField = c.checkpointDate !== undefined ? 'checkpointDate' : 'date';
    const rawDate = text(dateField, 64);
    const date = rawDate === null ? null : new Date(rawDate);
    if (rawDate === null) blank('checkpointDate');
    else if (Number.isNaN(date!.getTime())) {
      violations.push({
        propertyPath: `${at}.${dateField}`,
        message: 'This value is not a valid datetime.',
        code: ViolationCodes.invalid,
      });
    }

    const status = text('status', 64);
    if (status === null) blank('status');
    else if (!isTrackingStatusCode(status)) {
      violations.push({
        propertyPath: `${at}.status`,
        message: `The value you selected is not a valid choice. Valid choices: ${TRACKING_STATUS_CODES.join(', ')}.`,
        code: ViolationCodes.choice,
      });
    }

    const rawCountry = text('countryIso2', 2);
    const countryIso2 = normalizeCountryIso2(rawCountry);
    if (rawCountry !== null && rawCountry !== '' && countryIso2 === null) {
      violations.push({
        propertyPath: `${at}.countryIso2`,
        message: 'This value is not a valid country.',
        code: ViolationCodes.invalid,
      });
    }

    const rel = text('rel', 16);
    if (rel !== null && rel !== 'origin' && rel !== 'destination') {
      violations.push({
        propertyPath: `${at}.rel`,
        message:
          'The value you selected is not a valid choice. Valid choices: origin, destination.',
        code: ViolationCodes.choice,
      });
    }

    const info = text('info', 2000);
    const location = text('location', 500);
    const carrier = text('carrier', 100);
    if (violations.length > 0) return;
    checkpoints.push({
      externalId: `${PUSH_ID_PREFIX}${id!.trim()}`,
      checkpointDate: date!,
      status: status as ProviderCheckpoint['status'],
      info: info ?? '',
      location,
      countryIso2,
      carrierCode: carrier?.trim() || defaultCarrier,
      rel: rel as ProviderCheckpoint['rel'],
    });
  });
  return { checkpoints, violations };
}
