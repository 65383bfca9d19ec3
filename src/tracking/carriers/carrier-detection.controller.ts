import { Controller } from '@nestjs/common';
import type { ActionContext } from '../../hydra/actions/action-declaration';
import { Action } from '../../hydra/actions/action.decorator';
import { ValidationError } from '../../common/errors/api-errors';
import { checkDetectable, detectCarrier } from './carrier-detection';

const DETECTED_CARRIER = {
  type: 'object',
  properties: {
    code: { type: 'string', example: 'ups' },
    name: { type: 'string', example: 'UPS' },
    format: { type: 'string', example: 'UPS 1Z' },
    checksumValidated: { type: 'boolean' },
    trackingUrl: { type: 'string', format: 'uri', nullable: true },
  },
};

/**
 * `GET /tracking_numbers/{trackingNumber}/detect-carrier`: the reference's JavaScript client
 * calls it (in neither spec.md nor the reference OpenAPI). Pure: no database, no provider.
 */
@Controller()
export class CarrierDetectionController {
  @Action({
    method: 'GET',
    path: '/tracking_numbers/:trackingNumber/detect-carrier',
    summary: 'Detects the carrier of a tracking number.',
    description:
      'Answers the carrier a new shipment with this number would get as `originCarrier` (`carrier`, null when no carrier or several rank first: a POST /shipments would then answer 422 with these suggestions) and every candidate, best first, with the matching number format, whether its check digit passed, and the carrier\u2019s tracking page. Spaces and dashes are ignored. Any signed-in user. 422 for a blank number, one over 100 characters, or one with other characters than letters and digits.',
    output: {
      json: {
        type: 'object',
        properties: {
          trackingNumber: { type: 'string', example: '1Z999AA10123456784' },
          carrier: { type: 'string', nullable: true, example: 'ups' },
          carriers: { type: 'array', items: DETECTED_CARRIER },
        },
      },
    },
    access: 'user',
  })
  detect(_input: unknown, _principal: unknown, context: ActionContext) {
    const violation = checkDetectable(context.params.trackingNumber);
    if (violation) throw new ValidationError([violation]);
    return detectCarrier(context.params.trackingNumber);
  }
}
