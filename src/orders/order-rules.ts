import { normalizeAddress } from '../addresses/address-rules';
import { ViolationCodes, type Violation } from '../common/errors/api-errors';
import type { WriteOperation } from '../hydra/core/declaration';
import { blankToNull } from '../shipments/text-input';
import type { Order } from './order.entity';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * An order's attributes as stored: blank texts are none; a POST's type is `customer` unless
 * given (store plugins never send one); totals 0 and currency USD (upper-cased) by default,
 * also when sent as null; addresses normalised.
 */
export function normalizeOrder(order: Order, operation: WriteOperation | 'delete'): void {
  order.orderNumber = blankToNull(order.orderNumber);
  order.email = blankToNull(order.email);
  order.phoneNumber = blankToNull(order.phoneNumber);
  order.externalSourceSyncId = blankToNull(order.externalSourceSyncId);
  order.externalSourceUrl = blankToNull(order.externalSourceUrl);
  order.externalSourceIntegration = blankToNull(order.externalSourceIntegration);
  if (operation === 'post') order.orderType = blankToNull(order.orderType) ?? 'customer';
  order.subtotal ??= '0';
  order.total ??= '0';
  order.currency = blankToNull(order.currency)?.toUpperCase() ?? 'USD';
  normalizeAddress(order.shippingAddress);
  normalizeAddress(order.billingAddress);
}

/** An ISO 4217 currency code. */
export function currencyViolations(currency: string): Violation[] {
  return CURRENCIES.has(currency)
    ? []
    : [
        {
          propertyPath: 'currency',
          message: 'This value is not a valid currency.',
          code: ViolationCodes.invalid,
        },
      ];
}

export const ORDER_NUMBER_TAKEN: Violation = {
  propertyPath: 'orderNumber',
  message: 'This order number is already used by another order of the workspace.',
  code: ViolationCodes.unique,
};

/**
 * Each shipment an order is given must be of the order's workspace (`owners`: each existing
 * shipment's workspace).
 */
export function foreignShipmentViolations(
  shipmentIds: readonly string[],
  owners: ReadonlyMap<string, string>,
  workspaceId: string,
): Violation[] {
  return shipmentIds.flatMap((id, i) =>
    owners.get(id) === workspaceId
      ? []
      : [
          {
            propertyPath: `shipments[${i}]`,
            message: 'The shipment must belong to the workspace of the order.',
            code: ViolationCodes.invalid,
          },
        ],
  );
}

/** How an order's write changes its links to shipments. */
export interface OrderLinksPlan {
  /** Every shipment linked after the write. */
  wanted: string[];
  /** Linked before, not after. */
  unlinked: string[];
  /** Linked after, not before. */
  linked: string[];
}

/**
 * The shipments an order is linked to after a write: those given (`shipments` of the body),
 * else those linked already, plus those carrying its number (`carrying`: on POST, the
 * workspace's shipments that name the new order).
 */
export function planOrderLinks(
  existing: readonly string[],
  given: readonly string[] | undefined,
  carrying: readonly string[],
): OrderLinksPlan {
  const wanted = new Set([...(given ?? existing), ...carrying]);
  return {
    wanted: [...wanted],
    unlinked: existing.filter((id) => !wanted.has(id)),
    linked: [...wanted].filter((id) => !existing.includes(id)),
  };
}
