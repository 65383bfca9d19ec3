import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../../access/public.decorator';
import { NotFoundError } from '../errors/api-errors';
import { ResourceRegistry } from '../metadata/resource-registry';
import { DOCS_LINK, Responder } from '../serialization/responder';
import {
  apiDocumentation,
  entrypoint,
  entrypointContext,
  errorContext,
  resourceContext,
} from './hydra-documentation';

/** Entry point, JSON-LD contexts and the Hydra documentation, generated from the declarations. */
@Public()
@Controller()
export class HydraDocsController {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly responder: Responder,
  ) {}

  @Get(['/', '/index.jsonld'])
  root(@Req() req: Request, @Res() res: Response): void {
    if (this.responder.negotiate(req, ['jsonld', 'json', 'html']) === 'html') {
      res.redirect(302, '/docs');
      return;
    }
    this.send(req, res, entrypoint(this.registry.all()));
  }

  @Get('/docs.jsonld')
  docs(@Req() req: Request, @Res() res: Response): void {
    this.send(req, res, apiDocumentation(this.registry.all(), this.vocab(req)));
  }

  @Get('/contexts/:name')
  context(@Param('name') raw: string, @Req() req: Request, @Res() res: Response): void {
    const name = raw.replace(/\.jsonld$/, '');
    const vocab = this.vocab(req);
    if (name === 'Entrypoint')
      return this.send(req, res, entrypointContext(this.registry.all(), vocab));
    if (name === 'Error' || name === 'ConstraintViolationList')
      return this.send(req, res, errorContext(vocab, name));
    const resource = this.registry.byName(name);
    if (!resource) throw new NotFoundError();
    this.send(req, res, resourceContext(resource, vocab));
  }

  private vocab(req: Request): string {
    return `${req.protocol}://${req.get('host') ?? 'localhost'}/docs.jsonld#`;
  }

  private send(req: Request, res: Response, body: unknown): void {
    const format = this.responder.negotiate(req, ['jsonld', 'json']);
    res.setHeader('Link', DOCS_LINK);
    res.setHeader(
      'Content-Type',
      `${format === 'json' ? 'application/json' : 'application/ld+json'}; charset=utf-8`,
    );
    res.send(JSON.stringify(body));
  }
}
