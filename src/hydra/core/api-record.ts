/** A record as the API shows it: properties in declaration order, references as IRIs. */
export type ApiRecord = Record<string, unknown>;
