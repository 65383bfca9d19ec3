/**
 * Just enough GraphQL for the Shopify fake: a parser for operations without fragments or
 * directives (fields, aliases, arguments, variables, nested selections), a projection of plain
 * data through a selection (a property may be a function of the field's arguments), and
 * Shopify's calculated query cost on the selection (requested, from `first`/`last`) and on the
 * answer (actual): scalars and enums 0, objects 1, connections 2 plus their elements, lists
 * sized by `first`, mutations 10 [official: shopify.dev graphql-admin rate-limits, "Cost
 * calculation"; the exact weights of pageInfo and plain lists are this fake's choice].
 */
export interface GqlField {
  readonly name: string;
  readonly alias: string | null;
  readonly args: Readonly<Record<string, GqlArg>>;
  readonly selections: readonly GqlField[] | null;
}

export type GqlArg =
  | { readonly kind: 'variable'; readonly name: string }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'list'; readonly items: readonly GqlArg[] }
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, GqlArg>> };

export interface GqlDocument {
  readonly operation: 'query' | 'mutation';
  readonly selections: readonly GqlField[];
}

export class GqlSyntaxError extends Error {}

const PUNCTUATION = new Set(['{', '}', '(', ')', ':', '$', '!', '[', ']', '=', '@']);

function tokenize(source: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/[\s,]/.test(c)) i++;
    else if (c === '#') while (i < source.length && source[i] !== '\n') i++;
    else if (PUNCTUATION.has(c)) tokens.push(source[i++]);
    else if (c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
      if (j >= source.length) throw new GqlSyntaxError('unterminated string');
      tokens.push(source.slice(i, j + 1));
      i = j + 1;
    } else if (/[-\d]/.test(c)) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(source.slice(i));
      if (!m) throw new GqlSyntaxError(`unexpected ${c}`);
      tokens.push(m[0]);
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i))!;
      tokens.push(m[0]);
      i += m[0].length;
    } else if (source.startsWith('...', i)) {
      throw new GqlSyntaxError('fragments are not supported by this fake');
    } else throw new GqlSyntaxError(`unexpected character ${c}`);
  }
  return tokens;
}

export function parseGraphql(source: string): GqlDocument {
  const tokens = tokenize(source);
  let at = 0;
  const peek = () => tokens[at];
  const take = (expected?: string): string => {
    const token = tokens[at++];
    if (token === undefined) throw new GqlSyntaxError('unexpected end of document');
    if (expected !== undefined && token !== expected)
      throw new GqlSyntaxError(`expected ${expected}, found ${token}`);
    return token;
  };
  const name = (): string => {
    const token = take();
    if (!/^[A-Za-z_]/.test(token)) throw new GqlSyntaxError(`expected a name, found ${token}`);
    return token;
  };
  const skipType = (): void => {
    if (peek() === '[') {
      take('[');
      skipType();
      take(']');
    } else name();
    if (peek() === '!') take('!');
  };
  const value = (): GqlArg => {
    const token = peek();
    if (token === '$') {
      take('$');
      return { kind: 'variable', name: name() };
    }
    if (token === '[') {
      take('[');
      const items: GqlArg[] = [];
      while (peek() !== ']') items.push(value());
      take(']');
      return { kind: 'list', items };
    }
    if (token === '{') {
      take('{');
      const fields: Record<string, GqlArg> = {};
      while (peek() !== '}') {
        const key = name();
        take(':');
        fields[key] = value();
      }
      take('}');
      return { kind: 'object', fields };
    }
    take();
    if (token.startsWith('"')) return { kind: 'value', value: JSON.parse(token) as unknown };
    if (/^-?\d/.test(token)) return { kind: 'value', value: Number(token) };
    if (token === 'true' || token === 'false') return { kind: 'value', value: token === 'true' };
    if (token === 'null') return { kind: 'value', value: null };
    return { kind: 'value', value: token }; // an enum value
  };
  const selectionSet = (): GqlField[] => {
    take('{');
    const fields: GqlField[] = [];
    while (peek() !== '}') {
      let fieldName = name();
      let alias: string | null = null;
      if (peek() === ':') {
        take(':');
        alias = fieldName;
        fieldName = name();
      }
      const args: Record<string, GqlArg> = {};
      if (peek() === '(') {
        take('(');
        while (peek() !== ')') {
          const arg = name();
          take(':');
          args[arg] = value();
        }
        take(')');
      }
      if (peek() === '@') throw new GqlSyntaxError('directives are not supported by this fake');
      fields.push({
        name: fieldName,
        alias,
        args,
        selections: peek() === '{' ? selectionSet() : null,
      });
    }
    take('}');
    return fields;
  };

  let operation: 'query' | 'mutation' = 'query';
  if (peek() === 'query' || peek() === 'mutation') {
    operation = take() as 'query' | 'mutation';
    if (peek() !== '(' && peek() !== '{') name();
    if (peek() === '(') {
      take('(');
      while (peek() !== ')') {
        take('$');
        name();
        take(':');
        skipType();
        if (peek() === '=') {
          take('=');
          value();
        }
      }
      take(')');
    }
  }
  const selections = selectionSet();
  if (at !== tokens.length) throw new GqlSyntaxError('one operation per document');
  return { operation, selections };
}

/** The field's arguments with variables substituted. */
export function argValues(
  field: GqlField,
  variables: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const resolve = (arg: GqlArg): unknown => {
    switch (arg.kind) {
      case 'variable':
        return variables[arg.name] ?? null;
      case 'value':
        return arg.value;
      case 'list':
        return arg.items.map(resolve);
      case 'object':
        return Object.fromEntries(Object.entries(arg.fields).map(([k, v]) => [k, resolve(v)]));
    }
  };
  return Object.fromEntries(Object.entries(field.args).map(([k, v]) => [k, resolve(v)]));
}

/** A field whose value depends on its arguments (`lineItems(first: 10)`). */
export type Resolver = (args: Record<string, unknown>) => unknown;

/** `value` seen through `selections`: only the selected fields, functions called with their arguments. */
export function project(
  value: unknown,
  selections: readonly GqlField[] | null,
  variables: Readonly<Record<string, unknown>>,
): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => project(v, selections, variables));
  if (selections === null) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of selections) {
    const raw = source[field.name];
    const resolved =
      typeof raw === 'function' ? (raw as Resolver)(argValues(field, variables)) : raw;
    out[field.alias ?? field.name] = project(resolved, field.selections, variables);
  }
  return out;
}

/** A Relay connection over `items`, paged by `first` / `after` with `cursorOf`. */
export function connection<T>(
  items: readonly T[],
  args: Record<string, unknown>,
  cursorOf: (item: T) => string,
): { nodes: T[]; edges: Array<{ node: T; cursor: string }>; pageInfo: Record<string, unknown> } {
  const first = typeof args.first === 'number' ? args.first : items.length;
  const after = typeof args.after === 'string' ? args.after : null;
  const start = after === null ? 0 : items.findIndex((i) => cursorOf(i) === after) + 1;
  const page = items.slice(start, start + first);
  return {
    nodes: page,
    edges: page.map((node) => ({ node, cursor: cursorOf(node) })),
    pageInfo: {
      hasNextPage: start + first < items.length,
      hasPreviousPage: start > 0,
      startCursor: page.length ? cursorOf(page[0]) : null,
      endCursor: page.length ? cursorOf(page[page.length - 1]) : null,
    },
  };
}

const isConnection = (selections: readonly GqlField[]) =>
  selections.some((f) => f.name === 'nodes' || f.name === 'edges');

/** The selection of one element of a connection (under `nodes` or `edges { node }`). */
function elementSelection(selections: readonly GqlField[]): readonly GqlField[] {
  const nodes = selections.find((f) => f.name === 'nodes')?.selections;
  if (nodes) return nodes;
  const edges = selections.find((f) => f.name === 'edges')?.selections ?? [];
  return edges.find((f) => f.name === 'node')?.selections ?? [];
}

/** Mutations cost 10 whatever they select. */
export const MUTATION_COST = 10;

/** Cost before running: every `first` taken at its word. */
export function requestedCost(
  document: GqlDocument,
  variables: Readonly<Record<string, unknown>>,
): number {
  if (document.operation === 'mutation') return MUTATION_COST * document.selections.length;
  const selectionCost = (selections: readonly GqlField[]): number =>
    selections.reduce((sum, field) => sum + fieldCost(field), 0);
  const fieldCost = (field: GqlField): number => {
    if (!field.selections || field.name === 'pageInfo') return 0;
    const args = argValues(field, variables);
    const size = typeof args.first === 'number' ? args.first : args.last;
    if (typeof size === 'number') {
      if (isConnection(field.selections))
        return 2 + size * (1 + selectionCost(elementSelection(field.selections)));
      return size * (1 + selectionCost(field.selections));
    }
    return 1 + selectionCost(field.selections);
  };
  return selectionCost(document.selections);
}

/** Cost of what was answered (`data` as projected: keys are aliases or names). */
export function actualCost(document: GqlDocument, data: unknown): number {
  if (document.operation === 'mutation') return MUTATION_COST * document.selections.length;
  const selectionCost = (selections: readonly GqlField[], value: unknown): number => {
    if (value === null || typeof value !== 'object') return 0;
    const object = value as Record<string, unknown>;
    return selections.reduce((sum, f) => sum + fieldCost(f, object[f.alias ?? f.name]), 0);
  };
  const fieldCost = (field: GqlField, value: unknown): number => {
    if (!field.selections || field.name === 'pageInfo' || value === null || value === undefined)
      return 0;
    if (isConnection(field.selections)) {
      const conn = value as { nodes?: unknown[]; edges?: Array<{ node: unknown }> };
      const elements = conn.nodes ?? conn.edges?.map((e) => e.node) ?? [];
      const element = elementSelection(field.selections);
      return 2 + elements.reduce<number>((sum, el) => sum + 1 + selectionCost(element, el), 0);
    }
    if (Array.isArray(value))
      return value.reduce<number>((sum, el) => sum + 1 + selectionCost(field.selections!, el), 0);
    return 1 + selectionCost(field.selections, value);
  };
  return selectionCost(document.selections, data);
}
