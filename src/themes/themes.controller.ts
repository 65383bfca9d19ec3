import { Controller } from '@nestjs/common';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { NotFoundError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { isUuid } from '../hydra/core/identifiers';
import { ThemeGenerateInput } from './theme-generate.input';
import { ThemeGenerator } from './theme-generator';

/** The answer of both routes, for the docs. */
const GENERATED_THEME = {
  type: 'object',
  properties: {
    themeId: { type: 'string', format: 'uuid' },
    link: { type: 'string' },
    colors: { type: 'object', additionalProperties: true },
    fonts: { type: 'object', additionalProperties: true },
    detected: { type: 'object', additionalProperties: true },
    builder: { type: 'object', additionalProperties: true },
    css: { type: 'string' },
  },
  additionalProperties: true,
};

/**
 * Tracking page themes made from a shop's page. Public, like the other /public routes; the
 * fetch only reaches public addresses.
 */
@Controller()
export class ThemesController {
  constructor(private readonly themes: ThemeGenerator) {}

  @Action({
    method: 'POST',
    path: '/public/generate-theme',
    summary: 'Generates a tracking page theme from a shop\u2019s web page.',
    description:
      'Public (no token). Fetches `url` (public addresses only) and extracts the brand: name, logo, favicon, colors and fonts, answered with the page builder settings and CSS as `{themeId, link, name, logo, favicon, colors, fonts, detected, builder, css}`; `link` reads the theme again. `reuse: true` answers the theme already generated from the same URL, if any. Errors: 400 wrong types; 422 a blank or invalid URL, or a page that cannot be fetched.',
    input: ThemeGenerateInput,
    output: { json: GENERATED_THEME },
    status: 201,
    access: 'public',
  })
  async generate(input: ThemeGenerateInput, _principal: unknown, context: ActionContext) {
    const { id, theme } = await this.themes.generate(shopUrl(input.url), input.reuse ?? false);
    const link = `/public/generate-theme/${id}`;
    return typedJson(context, 'GeneratedTheme', { themeId: id, link, ...theme }, link);
  }

  @Action({
    method: 'GET',
    path: '/public/generate-theme/:id',
    summary: 'Reads a generated tracking page theme.',
    description:
      'Public (no token): the theme id (a random UUID, the `link` of the generation) is the capability. Answers the stored theme like the generation did. 404 for an unknown id.',
    output: { json: GENERATED_THEME },
    access: 'public',
  })
  async show(_input: unknown, _principal: unknown, context: ActionContext) {
    const id = context.params.id;
    const theme = isUuid(id) ? await this.themes.find(id) : null;
    if (!theme) throw new NotFoundError();
    const link = `/public/generate-theme/${id}`;
    return typedJson(context, 'GeneratedTheme', { themeId: id, link, ...theme }, link);
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
