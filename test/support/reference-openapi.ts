import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The reference service's OpenAPI (never copied into this repository): beside the repository
 * in CI (`../shared/reference/trackmage-openapi.json` from its root), or where
 * REFERENCE_OPENAPI points.
 */
export function referenceOpenApiPath(): string {
  return (
    process.env.REFERENCE_OPENAPI ??
    join(__dirname, '..', '..', '..', 'shared', 'reference', 'trackmage-openapi.json')
  );
}

type Document = {
  paths: Record<string, Record<string, { responses?: Record<string, any> }>>;
  components: Record<string, unknown>;
};

/**
 * Validators of the reference's response schemas, by operation and media type. OpenAPI 3.0
 * schemas read as JSON Schema (toJsonSchema), formats come from ajv-formats, and the
 * documentation keywords (example, readOnly, externalDocs) are ignored.
 */
export class ReferenceResponses {
  private readonly ajv: Ajv;
  private readonly doc: Document;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(path = referenceOpenApiPath()) {
    if (!existsSync(path)) {
      throw new Error(
        `The reference OpenAPI is not at ${path}: put the shared folder beside the repository or set REFERENCE_OPENAPI.`,
      );
    }
    this.doc = JSON.parse(readFileSync(path, 'utf8')) as Document;
    this.ajv = new Ajv({
      strict: false,
      allErrors: true,
      validateSchema: false,
      // The reference's patterns are PCRE (`\-` and `\&` escapes), invalid with the u flag.
      unicodeRegExp: false,
    });
    addFormats(this.ajv);
    this.ajv.addSchema({ components: toJsonSchema(this.doc.components) }, 'reference');
  }

  /** The validator of `method path` answering `status` in `type`. */
  validator(method: string, path: string, status: string, type: string): ValidateFunction {
    const key = `${method} ${path} ${status} ${type}`;
    let validate = this.cache.get(key);
    if (!validate) {
      const schema =
        this.doc.paths[path]?.[method.toLowerCase()]?.responses?.[status]?.content?.[type]?.schema;
      if (!schema) throw new Error(`The reference declares no ${type} schema for ${key}.`);
      const bound = JSON.parse(
        JSON.stringify(toJsonSchema(schema)).replace(
          /"#\/components\//g,
          '"reference#/components/',
        ),
      );
      validate = this.ajv.compile(bound);
      this.cache.set(key, validate);
    }
    return validate;
  }

  /** Problems of `body` against the schema, one line each; empty when it validates. */
  problems(method: string, path: string, status: string, type: string, body: unknown): string[] {
    const validate = this.validator(method, path, status, type);
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
  }
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: `type: [t, 'null']`, or, beside a `$ref` or
 * composition (no `type`), `anyOf: [<the schema>, {type: 'null'}]`.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) out[key] = toJsonSchema(value);
  if (nullable !== true) return out;
  if (typeof out.type === 'string') return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}
