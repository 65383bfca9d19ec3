import { ValidateBy } from 'class-validator';

/** A JSON type of the docs. */
export type DocumentedType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/** What the docs say of an attribute that `Documented` leaves unchecked. */
export interface DocumentedAttribute {
  /** The JSON type (omit beside `Typed`, which checks and documents it). */
  type?: DocumentedType;
  /**
   * The class of an object attribute, or of each element of an array (`type: 'array'`): its
   * own `@Documented` attributes describe it, or its resource schema for an `@ApiResource` (a
   * record embedded in the answer). An object without one is an open map, allowed only where
   * OPEN_MAPS (actions/open-maps.ts) names it.
   */
  of?: () => Function;
  /** The JSON type of each element of an array (`object`: open maps, see `of`). */
  items?: Exclude<DocumentedType, 'array'>;
  example?: unknown;
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
 * An attribute the docs describe but that is not checked here. On an action's output class,
 * every attribute of the answer (`required`: always present). On an input DTO, an attribute the
 * input reader keeps as sent: for protocols that answer bad values with errors of their own
 * (OAuth 2's `invalid_request`, RFC 6749 5.2), for a page's form that shows itself again with
 * a message, and for rules a service applies to several callers (any JSON type, unless a
 * `Typed` beside it checks the type).
 */
export const Documented = (attribute: DocumentedAttribute) =>
  ValidateBy({
    name: DOCUMENTED,
    constraints: [attribute],
    validator: { validate: () => true },
  });
