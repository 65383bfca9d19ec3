import type { Violation } from '../common/errors/api-errors';
import { ViolationCodes } from '../common/errors/api-errors';
import type { WidgetType } from './widget.entity';

/** What a visitor asks a widget for, checked against the widget's type. */
export type LookupQuery =
  | { kind: 'trackingNumber'; trackingNumber: string }
  | { kind: 'order'; orderNumber: string; email: string };

const MAX_INPUT = 255;

/** Reads a lookup body for a widget type: the query, or the violations (422). */
export function parseLookup(
  type: WidgetType,
  body: Record<string, unknown>,
): { query: LookupQuery } | { violations: Violation[] } {
  const violations: Violation[] = [];
  const text = (field: string): string => {
    const value = body[field];
    const trimmed = typeof value === 'string' ? value.trim() : '';
    if (value !== undefined && value !== null && typeof value !== 'string') {
      violations.push({
        propertyPath: field,
        message: 'This value should be of type string.',
        code: ViolationCodes.invalid,
      });
    } else if (trimmed === '') {
      violations.push({
        propertyPath: field,
        message: 'This value should not be blank.',
        code: ViolationCodes.notBlank,
      });
    } else if ([...trimmed].length > MAX_INPUT) {
      violations.push({
        propertyPath: field,
        message: `This value is too long. It should have ${MAX_INPUT} characters or less.`,
        code: ViolationCodes.tooLong,
      });
    }
    return trimmed;
  };
  if (type === 'tracking_form') {
    const trackingNumber = text('trackingNumber');
    return violations.length
      ? { violations }
      : { query: { kind: 'trackingNumber', trackingNumber } };
  }
  const orderNumber = text('orderNumber');
  const email = text('email');
  return violations.length ? { violations } : { query: { kind: 'order', orderNumber, email } };
}

/** The log line of a lookup: what was asked (never the e-mail address) and what came out. */
export function lookupLogInfo(query: LookupQuery, found: number): string {
  const asked =
    query.kind === 'trackingNumber'
      ? `tracking number "${query.trackingNumber}"`
      : `order number "${query.orderNumber}"`;
  const outcome =
    found === 0 ? 'nothing found' : `${found} shipment${found === 1 ? '' : 's'} found`;
  return `Lookup by ${asked}: ${outcome}.`;
}

/** The log line of a refused lookup (invalid input). */
export function refusedLogInfo(violations: Violation[]): string {
  return `Lookup refused: ${violations.map((v) => `${v.propertyPath}: ${v.message}`).join(' ')}`;
}
