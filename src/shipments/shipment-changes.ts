/** Properties that change on every write and say nothing about what the write changed. */
const BOOKKEEPING = new Set(['updatedAt']);

/**
 * The names of the properties whose values differ between two representations of a shipment
 * (as the API shows it), in the order of the newer one. Values compare as JSON, so dates,
 * arrays and embedded objects compare by content.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): string[] {
  const names = [...Object.keys(after), ...Object.keys(before).filter((k) => !(k in after))];
  return names.filter(
    (name) => !BOOKKEEPING.has(name) && asJson(before[name]) !== asJson(after[name]),
  );
}

function asJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}
