import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { Access } from '../access/access.decorator';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { HydraApi, routeParam } from '../hydra/controller/hydra-api';
import { ResourceController } from '../hydra/controller/resource-controller';
import { NotFoundError, ValidationError, ViolationCodes } from '../hydra/errors/api-errors';
import { typeError } from '../hydra/write/denormalizer';
import { sendAction } from './action-response';
import { customThemeOf } from './custom-theme';
import { subdomainFormProblem } from './subdomain';
import { TrackingPage } from './tracking-page.entity';
import { TrackingPagesService } from './tracking-pages.service';

export class TrackingPagesController extends ResourceController(
  TrackingPage,
  TrackingPagesService,
) {}

/** Tracking page actions: custom theme, subdomain check. */
// Authenticated; the handlers check the rest until they are declared actions.
@Access('user')
@Controller()
export class TrackingPageActionsController {
  constructor(
    private readonly api: HydraApi,
    private readonly pages: TrackingPagesService,
    private readonly dataSource: DataSource,
  ) {}

  /** The page's CSS theme: the last regenerated snapshot, else built from the current builder. */
  @Get('/tracking_pages/:id/custom_theme')
  async customTheme(@Req() req: Request, @Res() res: Response): Promise<void> {
    const resource = this.api.resource(TrackingPage);
    const principal = this.api.requirePrincipal(req);
    const id = routeParam(req, 'id');
    if (!(await this.api.data.visible(resource, principal, id))) throw new NotFoundError();
    const [row] = await this.dataSource.query(
      `SELECT builder, custom_theme, custom_theme_id FROM tracking_page WHERE id = $1`,
      [id],
    );
    if (!row) throw new NotFoundError();
    const theme = row.custom_theme ?? customThemeOf(row.builder ?? {}, row.custom_theme_id);
    sendAction(this.api.responder, req, res, 'CustomTheme', theme, 200);
  }

  @Post('/tracking_pages/:id/regenerate_custom_theme')
  @HttpCode(201)
  async regenerateCustomTheme(@Req() req: Request, @Res() res: Response): Promise<void> {
    const resource = this.api.resource(TrackingPage);
    this.api.responder.negotiate(req);
    const principal = this.api.requirePrincipal(req);
    const id = routeParam(req, 'id');
    await this.dataSource.transaction(async (em) => {
      const page = (await this.api.writer.load(resource, id, principal, em)) as TrackingPage;
      this.pages.regenerateTheme(page);
      await em.save(page);
    });
    const record = await this.api.data.get(resource, principal, id);
    this.api.responder.item(req, res, resource, record, 201);
  }

  /** Whether a subdomain has a valid form and is free across the service. */
  @Post('/subdomain/check')
  @HttpCode(200)
  async checkSubdomain(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    this.api.requirePrincipal(req);
    const body = this.api.body(req);
    const subdomain = body.subdomain;
    if (subdomain === undefined || subdomain === null || subdomain === '')
      throw ValidationError.of(
        'subdomain',
        'This value should not be blank.',
        ViolationCodes.notBlank,
      );
    if (typeof subdomain !== 'string') throw typeError('subdomain', 'string', subdomain);
    const problem = subdomainFormProblem(subdomain);
    if (problem)
      throw ValidationError.of(
        'subdomain',
        problem,
        problem.startsWith('This value is too long')
          ? ViolationCodes.tooLong
          : ViolationCodes.regex,
      );
    const available = await this.pages.subdomainAvailable(this.dataSource, subdomain);
    sendAction(this.api.responder, req, res, 'SubdomainCheckResponse', { subdomain, available });
  }
}
