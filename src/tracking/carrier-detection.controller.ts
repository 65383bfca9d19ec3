import { Controller } from '@nestjs/common';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { ValidationError } from '../common/errors/api-errors';
import { checkDetectable, detectCarrier } from './carriers/carrier-detection';
import { CarrierDetectionOutput } from './carrier-detection.output';

/**
 * `GET /tracking_numbers/{trackingNumber}/detect-carrier`: the reference's JavaScript client
 * calls it (in neither spec.md nor the reference OpenAPI). The rules are carriers/' pure
 * detection; this serves them over HTTP (README.md, "Carrier detection").
 */
@Controller()
export class CarrierDetectionController {
  @Action({
    method: 'GET',
    path: '/tracking_numbers/:trackingNumber/detect-carrier',
    summary: 'Detects the carrier of a tracking number.',
    description:
      'Answers the carrier a new shipment with this number would get as `originCarrier` (null when none or several rank first), and every candidate, best first. Any signed-in user; 422 for a blank or too long number, or one with other characters than letters and digits.',
    output: { json: CarrierDetectionOutput },
    access: 'user',
    responses: { 422: { description: 'A number that cannot be a tracking number.' } },
  })
  detect(_input: unknown, _principal: unknown, context: ActionContext) {
    const violation = checkDetectable(context.params.trackingNumber);
    if (violation) throw new ValidationError([violation]);
    return detectCarrier(context.params.trackingNumber);
  }
}
