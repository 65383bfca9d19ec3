import type { ResourceMeta } from './resource-meta';

/**
 * Browser forms: their bodies carry every field as a string, read as the declared types where
 * a resource is written (HTML forms of the pages, form posts of protocols).
 */
const FORM_CONTENT_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i;

/** Whether a body of this Content-Type is a form (url-encoded or multipart). */
export function isFormBody(contentType: string | undefined): boolean {
  return FORM_CONTENT_TYPE.test(contentType ?? '');
}

/** Form fields arrive as strings; read them as the declared types. */
export function coerceForm(
  resource: ResourceMeta,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const prop of resource.properties) {
    const v = out[prop.name];
    if (typeof v !== 'string') continue;
    if (prop.type === 'integer' && /^-?\d+$/.test(v)) out[prop.name] = Number(v);
    else if (prop.type === 'number' && /^-?\d+(\.\d+)?$/.test(v)) out[prop.name] = Number(v);
    else if (prop.type === 'boolean' && /^(true|false|1|0)$/i.test(v))
      out[prop.name] = /^(true|1)$/i.test(v);
    else if (v === '' && prop.nullable) out[prop.name] = null;
  }
  return out;
}

/** Where an action with a form of its own puts the form's schema (moved into requestBody). */
export const FORM_BODY_EXTENSION = 'x-form-body';
