import { ViolationCodes, type Violation } from '../common/errors/api-errors';
import type { CatalogueTeams } from '../products/product-store';
import { blankToNull } from '../shipments/text-input';
import type { OrderItem } from './order-item.entity';

/** An order item's attributes as stored: qty and price 0 and no options by default, blank texts none. */
export function normalizeOrderItem(item: OrderItem): void {
  item.qty ??= 0;
  item.price ??= '0';
  item.productOptions ??= {};
  item.productName = blankToNull(item.productName);
  item.productSku = blankToNull(item.productSku);
  item.externalProductId = blankToNull(item.externalProductId);
  item.externalSourceSyncId = blankToNull(item.externalSourceSyncId);
  item.externalSourceIntegration = blankToNull(item.externalSourceIntegration);
  item.imageUrl = blankToNull(item.imageUrl);
  item.externalProductLink = blankToNull(item.externalProductLink);
}

/** `productOptions` is an object of option codes to string values. */
export function productOptionsViolations(options: unknown): Violation[] {
  const valid =
    typeof options === 'object' &&
    options !== null &&
    !Array.isArray(options) &&
    Object.values(options).every((v) => typeof v === 'string');
  return valid
    ? []
    : [
        {
          propertyPath: 'productOptions',
          message: 'This value should be an object of option codes to string values.',
          code: ViolationCodes.invalid,
        },
      ];
}

/** The quantity may not drop below what shipments already carry of the item. */
export function shippedQuantityViolations(qty: number, shipped: number): Violation[] {
  return qty < shipped
    ? [
        {
          propertyPath: 'qty',
          message: `This value should be greater than or equal to ${shipped}, the quantity already in shipments.`,
          code: ViolationCodes.greaterThanOrEqual,
        },
      ]
    : [];
}

/** The product and variant must be of the order's team, the variant of that product. */
export function catalogueViolations(
  teams: CatalogueTeams,
  productId: string | null,
  variantId: string | null,
): Violation[] {
  const violations: Violation[] = [];
  if (productId && teams.productTeam !== teams.teamId) {
    violations.push({
      propertyPath: 'product',
      message: 'The product must belong to the team of the order.',
      code: ViolationCodes.invalid,
    });
  }
  if (variantId && teams.variantTeam !== teams.teamId) {
    violations.push({
      propertyPath: 'productVariant',
      message: 'The product variant must belong to the team of the order.',
      code: ViolationCodes.invalid,
    });
  } else if (variantId && productId && teams.variantProduct !== productId) {
    violations.push({
      propertyPath: 'productVariant',
      message: 'The product variant must be a variant of the product.',
      code: ViolationCodes.invalid,
    });
  }
  return violations;
}

/** An order item written in a batch, as `orderAfterEachNewItem` needs it. */
export interface NewItemOfOrder {
  iri: string;
  qty: number;
}

/**
 * The order as its events show it after each of its new items (written together, in this
 * order), from the order before them and after all of them: the items listed so far (`items`
 * keeps the order of `after`, by id) and the fulfilment they leave. A new item ships nothing:
 * one with a quantity turns a fulfilled order partial, and nothing else moves
 * (OrderStore.refreshAggregates); the refresh dates the order from the first. Null when the
 * last does not come out as `after`: a change this rule does not know of.
 */
export function orderAfterEachNewItem(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  newItems: readonly NewItemOfOrder[],
): Array<Record<string, unknown>> | null {
  const listed = new Set((before.items as string[] | undefined) ?? []);
  const all = (after.items as string[] | undefined) ?? [];
  let status = before.fulfillmentStatus;
  const out = newItems.map(({ iri, qty }) => {
    listed.add(iri);
    if (qty > 0 && status === 'fulfilled') status = 'partial';
    return { ...after, items: all.filter((i) => listed.has(i)), fulfillmentStatus: status };
  });
  const last = out[out.length - 1];
  if (last && JSON.stringify(last) !== JSON.stringify(after)) return null;
  return out;
}
