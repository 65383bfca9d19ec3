import { Documented } from '../validation/documented';

const IRI = { type: 'string', required: true } as const;

/** `GET /`: the hydra Entrypoint, with one collection IRI per resource (by its short name). */
export class HydraEntrypoint {
  @Documented(IRI) '@context'!: string;
  @Documented(IRI) '@id'!: string;
  @Documented(IRI) '@type'!: string;
  [collection: string]: string;
}

/** `/contexts/{name}`: a JSON-LD context document. */
export class JsonLdContextDocument {
  @Documented({ type: 'object', required: true, description: 'Term -> vocabulary IRI.' })
  '@context'!: Record<string, unknown>;
}

/** `/docs.jsonld`: the hydra:ApiDocumentation of every resource. */
export class HydraApiDocumentation {
  @Documented({ type: 'object', required: true }) '@context'!: Record<string, unknown>;
  @Documented(IRI) '@id'!: string;
  @Documented(IRI) '@type'!: string;
  @Documented({ type: 'string', required: true }) 'hydra:title'!: string;
  @Documented({ type: 'string', required: true }) 'hydra:description'!: string;
  @Documented(IRI) 'hydra:entrypoint'!: string;
  @Documented({ type: 'string', required: true }) version!: string;
  @Documented({
    type: 'array',
    items: 'object',
    required: true,
    description: 'One hydra:Class per resource.',
  })
  'hydra:supportedClass'!: Array<Record<string, unknown>>;
}
