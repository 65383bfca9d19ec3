import type { Request } from 'express';
import type { PoolClient } from 'pg';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../access/principal';
import { ApiError } from '../../common/errors/api-errors';
import { ifMatchHolds, representationTag } from '../../common/http/entity-tag';
import { transactionClient } from '../../database/query';
import type { DataProvider } from '../collection/data-provider';
import type { ResourceMeta } from '../core/resource-meta';
import { type ItemSource, itemBody } from '../serialization/item-representation';
import type { Format } from '../serialization/negotiation';

const RECORD_FORMATS: readonly Format[] = ['jsonld', 'json', 'csv', 'html'];

/** 412: the record changed since the client read the representation its If-Match names. */
export class PreconditionFailed extends ApiError {
  constructor() {
    super(
      412,
      'The resource has changed since it was read (If-Match names another version); read it again and retry.',
    );
  }
}

/**
 * If-Match on PUT and DELETE (README "API conventions"): checked inside the write's
 * transaction once the record is locked, so of two editors holding the same tag exactly one
 * writes and the other gets 412. A tag of any format matches (each is hashed from the same
 * rendering the Responder sends); the record is read on the transaction's connection.
 */
export async function checkIfMatch(
  data: DataProvider,
  resource: ResourceMeta,
  principal: Principal,
  id: string,
  em: EntityManager,
  request: Request | undefined,
): Promise<void> {
  const header = request?.headers['if-match'];
  if (header === undefined) return;
  const client = transactionClient(em) as PoolClient | undefined;
  const sources: ItemSource[] = [];
  const text = await data.findJson(resource, principal, id, client);
  if (text) sources.push(text);
  const record = await data.find(resource, principal, id, client);
  if (record) sources.push({ record });
  const tags = sources.flatMap((source) =>
    ('json' in source ? (['jsonld', 'json'] as const) : RECORD_FORMATS).map((format) =>
      representationTag(itemBody(format, resource, source)),
    ),
  );
  if (!ifMatchHolds(header, tags)) throw new PreconditionFailed();
}
