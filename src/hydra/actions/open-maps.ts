/**
 * The objects whose members the spec leaves free-form, each with the reason: `Class.attribute`
 * (an attribute of an action's input or output class, or a resource property; an object or an
 * array of objects), or `Class` (members beyond the declared ones). The schema generators
 * (actions/action-schemas.ts, docs/openapi.ts) document these as open maps and refuse any
 * other object without a class, so a new open map is a decision taken here.
 */
export const OPEN_MAPS: Readonly<Record<string, string>> = {
  'EstimateInput.addonsQtyByKey': 'add-on key -> quantity, keys from the billing catalogue',
  'HostedCheckoutInput.addonsQtyByKey': 'add-on key -> quantity, keys from the billing catalogue',
  'ImportPreviewRow.values': 'a CSV row: its own column names -> values',
  'ImportPreUpload.suggestedMapping': 'the CSV’s own column names -> the field each fills',
  'CustomThemeOutput.variables': 'CSS custom properties derived from the page builder -> values',
  'GeneratedThemeOutput.builder': 'a tracking page builder, as TrackingPage.builder takes it',
  TrackingPushPayload: 'a tracking provider’s own push payload, read as the raw bytes it signs',
  StoreWebhookPayload: 'a store’s own webhook payload, read as the raw bytes it signs',
  HydraEntrypoint: 'one collection IRI per resource, named after it (hydra Entrypoint)',
  'JsonLdContextDocument.@context': 'a JSON-LD context: terms -> vocabulary IRIs',
  'HydraApiDocumentation.@context': 'a JSON-LD context: terms -> vocabulary IRIs',
  'HydraApiDocumentation.hydra:supportedClass': 'Hydra class descriptions (JSON-LD)',
  'Shipment.customFields': 'custom field code -> value, the workspace’s own fields',
  'Order.customFields': 'custom field code -> value, the workspace’s own fields',
  'OrderItem.productOptions': 'the shop’s own product options (size, colour...)',
  'Credentials.parameters': 'the provider’s own settings, keyed as it names them',
  'Credentials.secrets': 'the provider’s own secrets, keyed as it names them (masked)',
  'Import.mapping': 'the CSV’s own column names -> the field each fills',
  'Export.filters': 'the collection query string’s parameters, as given',
  'Team.entitlements': 'entitlement key (from the plan catalogue) -> its capacity and use',
  'TeamSubscription.addonsQtyByKey': 'add-on key -> quantity, keys from the billing catalogue',
};

const consulted = new Set<string>();

/** Allows the open map `key` (recorded for openMapsInUse), or refuses it as undeclared. */
export function allowOpenMap(key: string): void {
  if (!(key in OPEN_MAPS))
    throw new Error(
      `${key} is an object without a class: describe it (Documented({ of }), ApiProperty({ of })), ` +
        'or name it in OPEN_MAPS (src/hydra/actions/open-maps.ts) if the spec leaves its members free-form',
    );
  consulted.add(key);
}

/** Whether a class is open beyond its declared attributes (recorded like allowOpenMap). */
export function isOpenClass(name: string): boolean {
  if (!(name in OPEN_MAPS)) return false;
  consulted.add(name);
  return true;
}

/** The OPEN_MAPS entries the schemas built so far used (a spec finds stale entries with it). */
export function openMapsInUse(): ReadonlySet<string> {
  return consulted;
}
