/**
 * Where the Hydra documentation lives, absolute as API Platform sends it: clients resolve the
 * `Link` header without a base (API Platform's parser refuses a relative one), and the
 * documentation's class ids and every context's `@vocab` expand against this same URL.
 */
export const DOCS_PATH = '/docs.jsonld';
export const API_DOCUMENTATION_REL = 'http://www.w3.org/ns/hydra/core#apiDocumentation';

/** `https://api.example.com/docs.jsonld` of the base `https://api.example.com`. */
export function documentationUrl(base: string): string {
  return `${base}${DOCS_PATH}`;
}

/** The `Link` header of every JSON-LD answer. */
export function documentationLink(base: string): string {
  return `<${documentationUrl(base)}>; rel="${API_DOCUMENTATION_REL}"`;
}

/** The `@vocab` of every context: terms are fragments of the documentation. */
export function vocabularyOf(base: string): string {
  return `${documentationUrl(base)}#`;
}
