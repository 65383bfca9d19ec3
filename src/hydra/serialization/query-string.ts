/**
 * Rebuilds a query string the way API Platform's IriHelper does: PHP's
 * parse_str grouping (a repeated key keeps its first position; `p[]` values
 * become an indexed list), then http_build_query with RFC 3986 encoding.
 */
type Node = string | NodeMap;
type NodeMap = Map<string, Node>;

export function rebuildQuery(
  pairs: ReadonlyArray<readonly [string, string]>,
  drop: string,
): string {
  const root: NodeMap = new Map();
  for (const [key, value] of pairs) {
    const path = splitKey(key);
    if (path[0] === drop) continue;
    insert(root, path, value);
  }
  const parts: string[] = [];
  serialize(root, null, parts);
  return parts.join('&');
}

function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const head = key.slice(0, open);
  const rest: string[] = [];
  const re = /\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  let consumed = open;
  while ((m = re.exec(key)) !== null && m.index === consumed) {
    rest.push(m[1]);
    consumed = m.index + m[0].length;
  }
  return consumed === key.length ? [head, ...rest] : [key];
}

function insert(map: NodeMap, path: string[], value: string): void {
  let node = map;
  for (let i = 0; i < path.length; i++) {
    let seg = path[i];
    const last = i === path.length - 1;
    if (seg === '') {
      let n = 0;
      for (const k of node.keys()) if (/^\d+$/.test(k)) n = Math.max(n, Number(k) + 1);
      seg = String(n);
    }
    if (last) {
      node.set(seg, value);
      return;
    }
    const next = node.get(seg);
    if (next instanceof Map) node = next;
    else {
      const created: NodeMap = new Map();
      node.set(seg, created);
      node = created;
    }
  }
}

function serialize(map: NodeMap, prefix: string | null, out: string[]): void {
  for (const [k, v] of map) {
    const key = prefix === null ? rawUrlEncode(k) : `${prefix}%5B${rawUrlEncode(k)}%5D`;
    if (v instanceof Map) serialize(v, key, out);
    else out.push(`${key}=${rawUrlEncode(v)}`);
  }
}

/** PHP's rawurlencode: only unreserved characters stay. */
export function rawUrlEncode(s: string): string {
  return encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
}
