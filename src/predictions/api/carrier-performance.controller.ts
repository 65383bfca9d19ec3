import { Controller } from '@nestjs/common';
import { fromParam } from '../../access/access-target';
import type { Principal } from '../../access/principal';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { typedList } from '../../hydra/actions/action-result';
import { Workspace } from '../../workspaces/workspace.entity';
import { CarrierPerformanceService } from './carrier-performance.service';
import { CarrierPerformanceInput } from './carrier-performance.input';
import { CarrierPerformanceOutput } from './carrier-performance.output';

/** `GET /workspaces/{id}/carrier_performance`: the carrier analytics (src/predictions/README.md). */
@Controller()
export class CarrierPerformanceController {
  constructor(private readonly performance: CarrierPerformanceService) {}

  @Action({
    method: 'GET',
    path: '/workspaces/:id/carrier_performance',
    summary: "Carrier performance of the workspace's shipments created in a date range.",
    description:
      'Per carrier (or carrier and destination country), from aggregates maintained as shipments change: volumes, delivery, transit and pickup days, first-attempt, exception, return and on-time rates. `from`/`to` are UTC creation days (default the last 30 days).',
    input: CarrierPerformanceInput,
    output: { json: [CarrierPerformanceOutput] },
    formats: ['jsonld', 'json', 'csv'],
    access: 'workspace:read',
    workspace: fromParam('id', Workspace),
  })
  async list(
    input: CarrierPerformanceInput,
    _principal: Principal,
    context: ActionContext<'workspace'>,
  ) {
    const rows = await this.performance.read(context.workspaceId, input);
    return typedList(
      context,
      'CarrierPerformance',
      rows,
      (r) =>
        `/workspaces/${context.workspaceId}/carrier_performance#${encodeURIComponent(r.carrier)}${r.destinationCountry ? `-${r.destinationCountry}` : ''}`,
    );
  }
}
