/**
 * The query string as ordered pairs with decoded keys (`order[createdAt]`,
 * `trackingStatus[]`, `address.city`). Parsed from the raw URL rather than
 * Express's parser so that order is kept, dots stay in keys and arrays are
 * not capped by qs's `arrayLimit`.
 */
export class QueryParams {
  private constructor(readonly pairs: ReadonlyArray<readonly [string, string]>) {}

  static fromUrl(url: string): QueryParams {
    const q = url.indexOf('?');
    if (q < 0) return new QueryParams([]);
    const out: Array<[string, string]> = [];
    for (const part of url.slice(q + 1).split('&')) {
      if (!part) continue;
      const eq = part.indexOf('=');
      const rawKey = eq < 0 ? part : part.slice(0, eq);
      const rawValue = eq < 0 ? '' : part.slice(eq + 1);
      out.push([safeDecode(rawKey), safeDecode(rawValue)]);
    }
    return new QueryParams(out);
  }

  /** Last value of a scalar parameter, as PHP's parse_str keeps it. */
  get(key: string): string | undefined {
    for (let i = this.pairs.length - 1; i >= 0; i--) {
      if (this.pairs[i][0] === key) return this.pairs[i][1];
    }
    return undefined;
  }

  has(key: string): boolean {
    return this.pairs.some(([k]) => k === key);
  }

  /** Values of `key[]` and of indexed forms `key[0]`, `key[1]`. */
  getArray(key: string): string[] | undefined {
    const values: string[] = [];
    let found = false;
    const prefix = key + '[';
    for (const [k, v] of this.pairs) {
      if (k.startsWith(prefix) && k.endsWith(']') && /^\d*$/.test(k.slice(prefix.length, -1))) {
        values.push(v);
        found = true;
      }
    }
    return found ? values : undefined;
  }

  /** `key[sub]` values as a map, e.g. `createdAt[before]` -> { before }. */
  getMap(key: string): Map<string, string> {
    const out = new Map<string, string>();
    const prefix = key + '[';
    for (const [k, v] of this.pairs) {
      if (k.startsWith(prefix) && k.endsWith(']')) out.set(k.slice(prefix.length, -1), v);
    }
    return out;
  }

  /** Entries of a bracketed family in request order: `order[a]`, `order[b]`. */
  family(name: string): Array<[string, string]> {
    const prefix = name + '[';
    const seen = new Map<string, string>();
    for (const [k, v] of this.pairs) {
      if (k.startsWith(prefix) && k.endsWith(']')) {
        const sub = k.slice(prefix.length, -1);
        seen.delete(sub);
        seen.set(sub, v);
      }
    }
    // A repeated key keeps its first position but its last value, as parse_str does.
    const order: string[] = [];
    for (const [k] of this.pairs) {
      if (k.startsWith(prefix) && k.endsWith(']')) {
        const sub = k.slice(prefix.length, -1);
        if (!order.includes(sub)) order.push(sub);
      }
    }
    return order.map((sub) => [sub, seen.get(sub) as string]);
  }

  without(key: string): QueryParams {
    return new QueryParams(this.pairs.filter(([k]) => k !== key));
  }
}

function safeDecode(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}
