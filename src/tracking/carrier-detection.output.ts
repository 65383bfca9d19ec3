import { Documented } from '../hydra/validation/documented';

/** One carrier a number may belong to. */
export class DetectedCarrierOutput {
  @Documented({ type: 'string', required: true, example: 'ups' }) code!: string;
  @Documented({ type: 'string', required: true, example: 'UPS' }) name!: string;
  @Documented({
    type: 'string',
    required: true,
    example: 'UPS 1Z',
    description: 'The number format that matched.',
  })
  format!: string;
  @Documented({ type: 'boolean', required: true }) checksumValidated!: boolean;
  @Documented({
    type: 'string',
    format: 'uri',
    nullable: true,
    required: true,
    description: 'The carrier’s tracking page for the number.',
  })
  trackingUrl!: string | null;
}

/** The carriers a tracking number may belong to. */
export class CarrierDetectionOutput {
  @Documented({
    type: 'string',
    required: true,
    example: '1Z999AA10123456784',
    description: 'Separators dropped, upper case.',
  })
  trackingNumber!: string;
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    example: 'ups',
    description: 'What a new shipment would get as `originCarrier`.',
  })
  carrier!: string | null;
  @Documented({
    type: 'array',
    of: () => DetectedCarrierOutput,
    required: true,
    description: 'Every candidate, best first.',
  })
  carriers!: DetectedCarrierOutput[];
}
