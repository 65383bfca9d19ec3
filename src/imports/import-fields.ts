/**
 * What an import can fill: the writable fields of a shipment or an order POST, addressed by
 * their body path (`address.city`). A mapping sends CSV columns to these fields; each row then
 * becomes one POST body, written through the resource's own rules.
 */
export const IMPORT_ENTITIES = ['shipments', 'orders'] as const;
export type ImportEntity = (typeof IMPORT_ENTITIES)[number];

export interface ImportField {
  name: string;
  required: boolean;
  /** Lower-case alphanumeric header names that suggest this field (besides its own name). */
  aliases: string[];
}

const ADDRESS_PARTS: Array<[string, string[]]> = [
  ['firstName', ['firstname', 'givenname']],
  ['lastName', ['lastname', 'surname', 'familyname']],
  ['company', ['company', 'companyname']],
  ['addressLine1', ['address', 'address1', 'addressline1', 'street', 'streetaddress']],
  ['addressLine2', ['address2', 'addressline2', 'apartment', 'suite']],
  ['city', ['city', 'town']],
  ['state', ['state', 'province', 'region', 'county']],
  ['postcode', ['postcode', 'zip', 'zipcode', 'postalcode']],
  ['country', ['country', 'countryname']],
  ['countryIso2', ['countrycode', 'countryiso2', 'countryiso', 'iso2']],
];

const addressFields = (prefix: string, headerPrefixes: string[]): ImportField[] =>
  ADDRESS_PARTS.map(([part, aliases]) => ({
    name: `${prefix}.${part}`,
    required: false,
    aliases: headerPrefixes.flatMap((p) => aliases.map((a) => `${p}${a}`)),
  }));

export const IMPORT_FIELDS: Readonly<Record<ImportEntity, readonly ImportField[]>> = {
  shipments: [
    {
      name: 'trackingNumber',
      required: true,
      aliases: ['tracking', 'trackingno', 'trackingcode', 'trackingid', 'awb', 'awbnumber'],
    },
    { name: 'originCarrier', required: false, aliases: ['carrier', 'courier', 'carriercode'] },
    {
      name: 'orderNumbers',
      required: false,
      aliases: ['ordernumber', 'order', 'orderid', 'orderno', 'ordernumbers', 'orders'],
    },
    { name: 'email', required: false, aliases: ['emailaddress', 'customeremail', 'mail'] },
    { name: 'phoneNumber', required: false, aliases: ['phone', 'telephone', 'mobile', 'tel'] },
    { name: 'shipmentStatus', required: false, aliases: ['status', 'shipmentstatuscode'] },
    { name: 'externalSourceSyncId', required: false, aliases: ['externalid'] },
    ...addressFields('address', ['', 'shipping', 'shippingaddress', 'address']),
  ],
  orders: [
    {
      name: 'orderNumber',
      required: true,
      aliases: ['order', 'orderid', 'orderno', 'ordernumber', 'number'],
    },
    { name: 'orderType', required: false, aliases: ['type'] },
    { name: 'email', required: false, aliases: ['emailaddress', 'customeremail', 'mail'] },
    { name: 'phoneNumber', required: false, aliases: ['phone', 'telephone', 'mobile', 'tel'] },
    { name: 'currency', required: false, aliases: ['currencycode'] },
    { name: 'subtotal', required: false, aliases: ['subtotalprice'] },
    {
      name: 'total',
      required: false,
      aliases: ['totalprice', 'ordertotal', 'amount', 'grandtotal'],
    },
    { name: 'orderStatus', required: false, aliases: ['status', 'orderstatuscode'] },
    { name: 'externalSourceSyncId', required: false, aliases: ['externalid'] },
    ...addressFields('shippingAddress', ['', 'shipping', 'shippingaddress']),
    ...addressFields('billingAddress', ['billing', 'billingaddress']),
  ],
};

const normalize = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

export function fieldNamed(entity: ImportEntity, name: string): ImportField | undefined {
  return IMPORT_FIELDS[entity].find((f) => f.name === name);
}

/**
 * A mapping suggested from the headers: each column to the first field whose name or aliases
 * it matches, each field at most once (first column wins); null for columns nothing matches.
 */
export function suggestMapping(
  entity: ImportEntity,
  columns: readonly string[],
): Record<string, string | null> {
  const taken = new Set<string>();
  const mapping: Record<string, string | null> = {};
  for (const column of columns) {
    const key = normalize(column);
    const field = IMPORT_FIELDS[entity].find(
      (f) =>
        !taken.has(f.name) && key !== '' && (normalize(f.name) === key || f.aliases.includes(key)),
    );
    if (field) taken.add(field.name);
    mapping[column] = field?.name ?? null;
  }
  return mapping;
}

/** The entity the headers look like: a tracking number column means shipments. */
export function guessEntity(columns: readonly string[]): ImportEntity {
  const mapping = suggestMapping('shipments', columns);
  if (Object.values(mapping).includes('trackingNumber')) return 'shipments';
  return Object.values(suggestMapping('orders', columns)).includes('orderNumber')
    ? 'orders'
    : 'shipments';
}

/** Order numbers in one cell: separated by commas, semicolons or pipes. */
export function splitList(cell: string): string[] {
  return cell
    .split(/[,;|]/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The POST body of one row: mapped, non-empty cells at their field paths; statuses as
 * `{code}` objects, order numbers as a list; orders default to the `customer` type.
 */
export function rowBody(
  entity: ImportEntity,
  workspaceIri: string,
  mapping: Record<string, string>,
  columns: readonly string[],
  values: readonly string[],
): Record<string, unknown> {
  const body: Record<string, unknown> = { workspace: workspaceIri };
  columns.forEach((column, i) => {
    const field = mapping[column];
    const cell = (values[i] ?? '').trim();
    if (!field || cell === '') return;
    if (field === 'orderNumbers') body.orderNumbers = splitList(cell);
    else if (field === 'shipmentStatus' || field === 'orderStatus') body[field] = { code: cell };
    else if (field.includes('.')) {
      const [group, part] = field.split('.');
      const object = (body[group] ??= {}) as Record<string, unknown>;
      object[part] = cell;
    } else body[field] = cell;
  });
  if (entity === 'orders' && body.orderType === undefined) body.orderType = 'customer';
  return body;
}

export interface MappingCheck {
  mapping: Record<string, string>;
  violations: Array<{ propertyPath: string; message: string }>;
}

/**
 * Checks a mapping given by a client against the file's columns: known columns, known fields,
 * each field once, the required fields present. Empty targets leave a column out.
 */
export function checkMapping(
  entity: ImportEntity,
  columns: readonly string[],
  given: Record<string, unknown>,
): MappingCheck {
  const violations: MappingCheck['violations'] = [];
  const mapping: Record<string, string> = {};
  const usedBy = new Map<string, string>();
  for (const [column, target] of Object.entries(given)) {
    const path = `mapping[${column}]`;
    if (!columns.includes(column)) {
      violations.push({ propertyPath: path, message: 'The file has no such column.' });
      continue;
    }
    if (target === null || target === '') continue;
    if (typeof target !== 'string' || !fieldNamed(entity, target)) {
      violations.push({
        propertyPath: path,
        message: `Unknown field for ${entity}: ${JSON.stringify(target)}.`,
      });
      continue;
    }
    if (usedBy.has(target)) {
      violations.push({
        propertyPath: path,
        message: `The field "${target}" is already mapped from "${usedBy.get(target)}".`,
      });
      continue;
    }
    usedBy.set(target, column);
    mapping[column] = target;
  }
  for (const field of IMPORT_FIELDS[entity]) {
    if (field.required && !usedBy.has(field.name))
      violations.push({
        propertyPath: 'mapping',
        message: `No column is mapped to "${field.name}", which ${entity} need.`,
      });
  }
  return { mapping, violations };
}

/** Violations for required fields a row leaves empty (`trackingNumber`, `orderNumber`). */
export function missingRequired(
  entity: ImportEntity,
  body: Record<string, unknown>,
): Array<{ propertyPath: string; message: string }> {
  return IMPORT_FIELDS[entity]
    .filter((f) => f.required && body[f.name] === undefined)
    .map((f) => ({ propertyPath: f.name, message: 'This value should not be blank.' }));
}
