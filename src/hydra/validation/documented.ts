import { ValidateBy } from 'class-validator';

/** What the docs say of an attribute that `Documented` leaves unchecked. */
export interface DocumentedAttribute {
  /** The JSON type (omit beside `Typed`, which checks and documents it). */
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  description?: string;
  enum?: readonly unknown[];
  format?: string;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  /** Documented as required (not checked: the handler's protocol answers its absence). */
  required?: boolean;
}

export const DOCUMENTED = 'documented';

/**
 * An input attribute that the input reader keeps and the docs describe, but that is not
 * checked here: for protocols that answer bad values with errors of their own (OAuth 2's
 * `invalid_request`, RFC 6749 5.2), for a page's form that shows itself again with a message,
 * and for rules a service applies to several callers. The handler reads the value as sent
 * (any JSON type, unless a `Typed` beside it checks the type).
 */
export const Documented = (attribute: DocumentedAttribute) =>
  ValidateBy({
    name: DOCUMENTED,
    constraints: [attribute],
    validator: { validate: () => true },
  });
