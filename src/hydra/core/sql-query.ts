/**
 * A condition that is a plain equality of one expression of the row with a
 * set of values (`expr = $1`, `expr = ANY($1)`): what a maintained count can
 * answer (collection/maintained-counts.ts). Values as their text form.
 */
export interface Equality {
  sql: string;
  values: string[];
}

/** Accumulates the parts of one SELECT with bound parameters; never interpolates values. */
export class SqlQuery {
  readonly params: unknown[] = [];
  readonly where: string[] = [];
  /** For each entry of `where`, the equality it is, when it is one and said so. */
  readonly equalities: Array<Equality | undefined> = [];
  readonly orderBy: string[] = [];
  private readonly joins = new Map<string, string>();

  constructor(
    readonly table: string,
    readonly alias: string,
  ) {}

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  join(key: string, sql: string): void {
    if (!this.joins.has(key)) this.joins.set(key, sql);
  }

  hasJoins(): boolean {
    return this.joins.size > 0;
  }

  /**
   * Adds a condition. Pass `equality` only when the condition is exactly
   * "the expression equals one of these values" (no NULL match, no cast that
   * changes the comparison): maintained counts rely on it.
   */
  andWhere(condition: string, equality?: Equality): void {
    this.where.push(condition);
    this.equalities.push(equality);
  }

  fromClause(): string {
    return `FROM ${quoteIdent(this.table)} ${this.alias}${this.joinClause()}`;
  }

  /** The joins, each with a leading space ('' without joins). */
  joinClause(): string {
    return [...this.joins.values()].map((j) => ' ' + j).join('');
  }

  whereClause(): string {
    return this.where.length ? ` WHERE ${this.where.join(' AND ')}` : '';
  }
}

export function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}
