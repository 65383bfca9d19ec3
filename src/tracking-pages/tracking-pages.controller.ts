import { Controller } from '@nestjs/common';
import { ownerOfParam } from '../access/access-target';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { ResourceController } from '../hydra/controller/resource-controller';
import { TrackingPage } from './tracking-page.entity';
import { TrackingPageActions } from './tracking-page-actions.service';
import { SubdomainCheckInput } from './tracking-pages.input';
import { CustomThemeOutput, SubdomainCheckResponse } from './tracking-pages.output';
import { TrackingPagesService } from './tracking-pages.service';

export class TrackingPagesController extends ResourceController(
  TrackingPage,
  TrackingPagesService,
) {}

/** Tracking page actions: custom theme, subdomain check. */
@Controller()
export class TrackingPageActionsController {
  constructor(private readonly actions: TrackingPageActions) {}

  @Action({
    method: 'GET',
    path: '/tracking_pages/:id/custom_theme',
    summary: 'Gets the CSS theme of a tracking page.',
    description:
      'The page’s theme (colours, fonts, `customThemeId`): the snapshot of the last `regenerate_custom_theme`, else one built from the page’s builder.',
    output: { json: CustomThemeOutput },
    access: 'workspace:read',
    workspace: ownerOfParam(TrackingPage),
  })
  async customTheme(_input: object, _principal: Principal, context: ActionContext) {
    const theme = await this.actions.customTheme(context.params.id);
    return typedJson(context, 'CustomTheme', theme);
  }

  @Action({
    method: 'POST',
    path: '/tracking_pages/:id/regenerate_custom_theme',
    summary: 'Snapshots a tracking page\u2019s CSS theme under a new id.',
    description:
      'Builds the theme from the page\u2019s current builder, stores it with a new `customThemeId` (so caches of the old stylesheet are left behind), and answers the page (201). Needs write access to the page\u2019s workspace: 403 for read-only members, 404 for a page the caller cannot see.',
    output: { item: TrackingPage },
    status: 201,
    access: 'workspace:write',
    workspace: ownerOfParam(TrackingPage),
  })
  async regenerateCustomTheme(_input: object, _principal: Principal, context: ActionContext) {
    await this.actions.regenerateTheme(context.params.id);
    return context.params.id;
  }

  @Action({
    method: 'POST',
    path: '/subdomain/check',
    summary: 'Checks whether a tracking page subdomain is valid and free.',
    description:
      'Answers `{subdomain, available}`: `available` is false when a tracking page of any tenant uses it, or it is reserved. The subdomain must be lower-case letters, digits and hyphens, at most 63 characters.',
    input: SubdomainCheckInput,
    output: { json: SubdomainCheckResponse },
    access: 'user',
  })
  async checkSubdomain(input: SubdomainCheckInput, _principal: Principal, context: ActionContext) {
    const state = await this.actions.checkSubdomain(input.subdomain);
    return typedJson(context, 'SubdomainCheckResponse', state);
  }
}
