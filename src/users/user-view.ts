import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { PrincipalLoader } from '../access/principal-loader';
import { DataProvider } from '../hydra/collection/data-provider';
import { NotFoundError } from '../common/errors/api-errors';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { Responder } from '../hydra/actions/responder';
import { jsonLdItem } from '../hydra/serialization/jsonld';
import type { Format } from '../hydra/serialization/negotiation';
import type { ApiRecord } from '../hydra/core/api-record';
import { User } from './user.entity';

/**
 * A user as the API shows it, for answers that embed one (sign-up, e-mail verification,
 * password reset): read through the shared layer, as the user themself sees it.
 */
@Injectable()
export class UserView {
  constructor(
    private readonly principals: PrincipalLoader,
    private readonly data: DataProvider,
    private readonly registry: ResourceRegistry,
    private readonly responder: Responder,
  ) {}

  async record(userId: string): Promise<ApiRecord> {
    const principal = await this.principals.forUser(userId);
    if (!principal) throw new NotFoundError();
    return this.data.get(this.registry.get(User), principal, userId);
  }

  /** The record in the request's format: JSON-LD (with @id, @type) or plain JSON. */
  async embedded(req: Request, userId: string): Promise<ApiRecord> {
    return this.embeddedAs(this.responder.negotiate(req, ['jsonld', 'json']), userId);
  }

  /** The record in a negotiated format (declared actions' `context.format`). */
  async embeddedAs(format: Format | undefined, userId: string): Promise<ApiRecord> {
    const record = await this.record(userId);
    return format === 'jsonld' ? jsonLdItem(this.registry.get(User), record, false) : record;
  }
}
