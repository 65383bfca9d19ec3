import { Controller } from '@nestjs/common';
import type { Principal } from '../../access/principal';
import type { ActionContext } from '../actions/action-declaration';
import { Action } from '../actions/action.decorator';
import { Answer, RedirectAnswer } from '../actions/action-result';
import { NotFoundError } from '../../common/errors/api-errors';
import { ResourceRegistry } from '../metadata/resource-registry';
import { declaredActions } from '../actions/action-registry';
import { documentationLink } from '../serialization/documentation-link';
import { AppConfig } from '../../config/app-config';
import { requestBaseUrl } from '../../config/public-base-url';
import {
  apiDocumentation,
  entrypoint,
  entrypointContext,
  errorContext,
  resourceContext,
} from './hydra-documentation';
import {
  HydraApiDocumentation,
  HydraEntrypoint,
  JsonLdContextDocument,
} from './hydra-documentation.output';

/**
 * Entry point, JSON-LD contexts and the Hydra documentation, generated from the declarations.
 * Public (no token); documents are answered as they are (they carry their own `@context`),
 * with the Link header naming the Hydra documentation, like every JSON-LD answer.
 */
@Controller()
export class HydraDocsController {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly config: AppConfig,
  ) {}

  @Action({
    method: 'GET',
    path: '/',
    summary: 'The API entry point: the IRI of every collection.',
    description:
      'The Hydra Entrypoint in JSON-LD (or plain JSON), with the documentation Link header. A browser asking for HTML is redirected to the interactive docs at /docs.',
    output: { oneOf: { json: HydraEntrypoint, redirect: true } },
    formats: ['jsonld', 'json', 'html'],
    access: 'public',
  })
  root(_input: unknown, _principal: Principal | null, context: ActionContext) {
    return this.entrypoint(context);
  }

  @Action({
    method: 'GET',
    path: '/index.jsonld',
    summary: 'The API entry point (as `GET /`).',
    description:
      'The Hydra Entrypoint in JSON-LD (or plain JSON), with the documentation Link header. A browser asking for HTML is redirected to the interactive docs at /docs.',
    output: { oneOf: { json: HydraEntrypoint, redirect: true } },
    formats: ['jsonld', 'json', 'html'],
    access: 'public',
  })
  index(_input: unknown, _principal: Principal | null, context: ActionContext) {
    return this.entrypoint(context);
  }

  @Action({
    method: 'GET',
    path: '/docs.jsonld',
    summary: 'The Hydra API documentation (hydra:ApiDocumentation).',
    description:
      'Every resource class with its properties and operations, generated from the declarations, in JSON-LD (or plain JSON).',
    output: { json: HydraApiDocumentation },
    access: 'public',
  })
  docs(_input: unknown, _principal: Principal | null, context: ActionContext) {
    const source = {
      resources: this.registry.all(),
      lookup: this.registry,
      actions: declaredActions(),
    };
    return this.document(context, (base) => apiDocumentation(source, base));
  }

  @Action({
    method: 'GET',
    path: '/contexts/:name',
    summary: 'The JSON-LD context of a resource, the entry point or the errors.',
    description:
      'The context mapping the terms of a resource (`Shipment`), `Entrypoint`, `Error` or `ConstraintViolationList` to the vocabulary of /docs.jsonld. `.jsonld` may end the name.',
    output: { json: JsonLdContextDocument },
    access: 'public',
  })
  context(_input: unknown, _principal: Principal | null, context: ActionContext) {
    const name = context.params.name.replace(/\.jsonld$/, '');
    if (name === 'Entrypoint')
      return this.document(context, (base) => entrypointContext(this.registry.all(), base));
    if (name === 'Error' || name === 'ConstraintViolationList')
      return this.document(context, (base) => errorContext(base, name));
    const resource = this.registry.byName(name);
    if (!resource) throw new NotFoundError();
    return this.document(context, (base) => resourceContext(resource, base));
  }

  /** Browsers asking for HTML go to the interactive docs (Swagger UI). */
  private entrypoint(context: ActionContext) {
    if (context.format === 'html') return new RedirectAnswer({ url: '/docs', status: 302 });
    return this.document(context, () => entrypoint(this.registry.all()));
  }

  /**
   * A document as it is, with the absolute Link header to the Hydra documentation; `base`
   * (PUBLIC_URL, else the request's origin) is the one the Link, the vocabulary and the
   * documentation's ids share.
   */
  private document<T extends object>(context: ActionContext, body: (base: string) => T): Answer<T> {
    const base = requestBaseUrl(this.config, context.origin);
    return new Answer(body(base), undefined, { Link: documentationLink(base) });
  }
}
