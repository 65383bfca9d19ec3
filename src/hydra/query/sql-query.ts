/** Accumulates the parts of one SELECT with bound parameters; never interpolates values. */
export class SqlQuery {
  readonly params: unknown[] = [];
  readonly where: string[] = [];
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

  andWhere(condition: string): void {
    this.where.push(condition);
  }

  fromClause(): string {
    return `FROM ${quoteIdent(this.table)} ${this.alias}${[...this.joins.values()].map((j) => ' ' + j).join('')}`;
  }

  whereClause(): string {
    return this.where.length ? ` WHERE ${this.where.join(' AND ')}` : '';
  }
}

export function quoteIdent(name: string): string {
  return '"' + name.replace(/"/g, '""') + '"';
}
