import { Controller } from '@nestjs/common';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { NotFoundError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { isUuid } from '../hydra/core/identifiers';
import { ThemeGenerateInput } from './theme-generate.input';
import { ThemeGenerator } from './theme-generator';
import { GeneratedThemeOutput } from './theme.output';

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
      'Fetches `url` (public addresses only) and answers the brand it shows (name, logo, favicon, colors, fonts) with a page builder and its CSS; `link` reads the theme again. `reuse: true` answers the theme already generated from the same URL, if any.',
    input: ThemeGenerateInput,
    output: { json: GeneratedThemeOutput },
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
      'Answers the stored theme like the generation did: its id (a random UUID) is the capability.',
    output: { json: GeneratedThemeOutput },
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
