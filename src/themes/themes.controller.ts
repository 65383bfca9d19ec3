import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Public } from '../access/public.decorator';
import { HydraApi, routeParam } from '../hydra/controller/hydra-api';
import { NotFoundError, ValidationError, ViolationCodes } from '../hydra/errors/api-errors';
import { isUuid } from '../hydra/filters/filter';
import { readBoolean, requireString } from '../security/body-fields';
import { sendAction } from '../tracking-pages/action-response';
import { ThemeGenerator } from './theme-generator';

/**
 * `POST /public/generate-theme` `{url, reuse?}` -> 201 `{themeId, link, name, logo, favicon,
 * colors, fonts, detected, builder, css}`: a tracking page theme made from a shop's page.
 * Public, like the other /public routes; the fetch only reaches public addresses.
 * `GET /public/generate-theme/{themeId}` (the `link`) answers the stored theme.
 */
@Public()
@Controller('public/generate-theme')
export class ThemesController {
  constructor(
    private readonly api: HydraApi,
    private readonly themes: ThemeGenerator,
  ) {}

  @Post()
  @HttpCode(201)
  async generate(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const body = this.api.body(req);
    const url = shopUrl(requireString(body, 'url'));
    const reuse = readBoolean(body, 'reuse') ?? false;
    const { id, theme } = await this.themes.generate(url, reuse);
    const link = `/public/generate-theme/${id}`;
    sendAction(
      this.api.responder,
      req,
      res,
      'GeneratedTheme',
      { themeId: id, link, ...theme },
      201,
      link,
    );
  }

  @Get(':id')
  async show(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.api.responder.negotiate(req, ['jsonld', 'json']);
    const id = routeParam(req, 'id');
    const theme = isUuid(id) ? await this.themes.find(id) : null;
    if (!theme) throw new NotFoundError();
    const link = `/public/generate-theme/${id}`;
    sendAction(
      this.api.responder,
      req,
      res,
      'GeneratedTheme',
      { themeId: id, link, ...theme },
      200,
      link,
    );
  }
}

/** An absolute http(s) URL; a bare host (`acme.com/shop`) means https. Fragments dropped. */
export function shopUrl(raw: string): string {
  const value = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  let url: URL | null = null;
  try {
    url = new URL(withScheme);
  } catch {
    url = null;
  }
  if (
    !url ||
    !['http:', 'https:'].includes(url.protocol) ||
    !url.hostname ||
    url.username ||
    url.password ||
    value.length > 2000
  )
    throw ValidationError.of('url', 'This value is not a valid URL.', ViolationCodes.invalid);
  url.hash = '';
  return url.toString();
}
