import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiOperation } from '@nestjs/swagger';
import { Access } from '../../access/access.decorator';
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

/**
 * Entry point, JSON-LD contexts and the Hydra documentation, generated from the declarations.
 * Public (no token); they write their documents themselves (JSON-LD with the docs Link).
 */
@Access('public')
@Controller()
export class HydraDocsController {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly responder: Responder,
  ) {}

  @Get(['/', '/index.jsonld'])
  @ApiOperation({
    summary: 'The API entry point: the IRI of every collection.',
    description:
      'Public (no token). Answers the Hydra Entrypoint in JSON-LD (or plain JSON) with the documentation Link header; a browser asking for HTML is redirected (302) to the interactive docs at /docs. 406 for other formats.',
  })
  root(@Req() req: Request, @Res() res: Response): void {
    if (this.responder.negotiate(req, ['jsonld', 'json', 'html']) === 'html') {
      res.redirect(302, '/docs');
      return;
    }
    this.send(req, res, entrypoint(this.registry.all()));
  }

  @Get('/docs.jsonld')
  @ApiOperation({
    summary: 'The Hydra API documentation (hydra:ApiDocumentation).',
    description:
      'Public (no token). Every resource class with its properties and operations, generated from the declarations, in JSON-LD (or plain JSON). 406 for other formats.',
  })
  docs(@Req() req: Request, @Res() res: Response): void {
    this.send(req, res, apiDocumentation(this.registry.all(), this.vocab(req)));
  }

  @Get('/contexts/:name')
  @ApiOperation({
    summary: 'The JSON-LD context of a resource, the entry point or the errors.',
    description:
      'Public (no token). `name` is a resource short name (`Shipment`), `Entrypoint`, `Error` or `ConstraintViolationList`, with or without `.jsonld`; answers the context mapping its terms to the vocabulary of /docs.jsonld. 404 for an unknown name, 406 for formats other than JSON-LD and JSON.',
  })
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
