/**
 * The Hydra tools of test/hydra-clients.e2e-spec.ts, run as they run for their users: ES
 * modules in plain Node (jest's CommonJS sandbox cannot load them), against a listening server.
 * Prints one JSON document; anything the tools log (the parser reports some problems on the
 * console instead of throwing) is collected in `logged`.
 *
 *   node hydra-tools.mjs hydra <entrypoint URL> <token>   API Platform's parser, /docs.jsonld
 *   node hydra-tools.mjs openapi <docs.json URL>          the same parser, OpenAPI 3
 *   node hydra-tools.mjs follow <first page URL> <token>  alcaeus, hydra:next to the last page
 */
import { parseHydraDocumentation, parseOpenApi3Documentation } from '@api-platform/api-doc-parser';
import JsonLdParser from '@rdfjs/parser-jsonld';
import rdf from '@zazuko/env';
import Environment from '@zazuko/env/Environment.js';
import create from 'alcaeus';

const logged = [];
for (const level of ['log', 'info', 'warn', 'error'])
  console[level] = (...args) => logged.push(`${level}: ${args.map(String).join(' ')}`);

const [command, url, token] = process.argv.slice(2);
const auth = token ? { Authorization: `Bearer ${token}` } : {};

/** A resource of the parser, its references by URL (the parser links Resource objects). */
function resourceSummary(resource) {
  const name = (field) => field.name;
  return {
    name: resource.name,
    url: resource.url,
    id: resource.id ?? null,
    title: resource.title ?? null,
    fields: (resource.fields ?? []).map((field) => ({
      name: field.name,
      id: field.id ?? null,
      range: field.range ?? null,
      type: field.type ?? null,
      reference: typeof field.reference === 'object' ? (field.reference?.url ?? null) : null,
      embedded: field.embedded?.url ?? null,
      maxCardinality: field.maxCardinality ?? null,
      required: field.required ?? false,
      nullable: field.nullable ?? null,
    })),
    readable: (resource.readableFields ?? []).map(name),
    writable: (resource.writableFields ?? []).map(name),
    operations: (resource.operations ?? []).map((o) => ({
      name: o.name,
      type: o.type,
      method: o.method ?? null,
      expects: o.expects ?? null,
      returns: o.returns ?? null,
    })),
  };
}

/** The error the parser threw or rejected with (it rejects with `{api, error, response}`). */
function failure(error) {
  const cause = error?.error ?? error;
  return String(cause?.stack ?? cause?.message ?? JSON.stringify(cause));
}

async function hydra() {
  // The caller's token, as API Platform Admin passes it: collections need one (their mappings).
  const { api, status } = await parseHydraDocumentation(url, token ? { headers: auth } : {});
  const resources = [];
  for (const resource of api.resources) {
    // What API Platform Admin's filters read: the collection's hydra:search mapping.
    const parameters = await resource.getParameters();
    resources.push({
      ...resourceSummary(resource),
      parameters: parameters.map((p) => ({ variable: p.variable, range: p.range ?? null })),
    });
  }
  return { status, title: api.title, resources };
}

async function openapi() {
  const { api, status } = await parseOpenApi3Documentation(url);
  return { status, title: api.title, resources: api.resources.map(resourceSummary) };
}

async function follow() {
  const env = new Environment(create(), { parent: rdf });
  env.formats.parsers.set('application/ld+json', new JsonLdParser());
  env.hydra.defaultHeaders = auth;
  const pages = [];
  for (let next = url; next && pages.length < 100; ) {
    const { response, representation } = await env.hydra.loadResource(next);
    const collection = representation?.root;
    const view = collection?.view?.[0];
    pages.push({
      requested: next,
      status: response?.xhr?.status ?? null,
      collection: collection?.id?.value ?? null,
      types: collection ? [...collection.types.keys()].map((t) => t.id.value) : [],
      totalItems: collection?.totalItems ?? null,
      members: (collection?.member ?? []).map((m) => m.id.value),
      view: view?.id?.value ?? null,
      first: view?.first?.id?.value ?? null,
      last: view?.last?.id?.value ?? null,
      // A term not typed @id reads as a literal: `next` is then no resource to follow.
      next: view?.next?.id?.value ?? null,
    });
    next = pages.at(-1).next;
  }
  return { pages };
}

const commands = { hydra, openapi, follow };
let output;
try {
  if (!commands[command]) throw new Error(`unknown command ${command}`);
  output = { ok: true, ...(await commands[command]()) };
} catch (error) {
  output = { ok: false, error: failure(error) };
}
process.stdout.write(JSON.stringify({ ...output, logged }));
