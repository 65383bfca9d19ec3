import { Documented } from '../../hydra/validation/documented';

/** What a provider's push did. */
export class PushReceiptOutput {
  @Documented({ type: 'integer', required: true, description: 'Updates the push carried.' })
  received!: number;
  @Documented({ type: 'integer', required: true, description: 'Shipments updated.' })
  applied!: number;
  @Documented({
    type: 'array',
    items: 'string',
    required: true,
    description: 'Numbers no shipment tracked by these credentials has.',
  })
  unknown!: string[];
}

/** The token a provider's pushes carry (RFC 6749 client credentials). */
export class PushToken {
  @Documented({
    type: 'string',
    required: true,
    description: 'The token the provider’s pushes carry.',
  })
  access_token!: string;
  @Documented({ type: 'string', enum: ['Bearer'], required: true }) token_type!: 'Bearer';
  @Documented({ type: 'integer', required: true, description: 'Seconds until the token expires.' })
  expires_in!: number;
}

/** A provider's own push payload, exactly as it sends it (documented; read as raw bytes). */
export class TrackingPushPayload {}
