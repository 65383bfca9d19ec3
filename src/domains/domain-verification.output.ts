import { Documented } from '../hydra/validation/documented';

/** The TXT record that verifies a domain. */
export class ExpectedTxtRecord {
  @Documented({ type: 'string', required: true }) name!: string;
  @Documented({ type: 'string', required: true }) value!: string;
}

/** The DNS records a domain needs: the TXT proof of ownership, and the CNAME for traffic. */
export class ExpectedRecords {
  @Documented({
    type: 'string',
    nullable: true,
    required: true,
    description: 'The CNAME target (null: not configured).',
  })
  cname!: string | null;
  @Documented({ of: () => ExpectedTxtRecord, required: true }) txt!: ExpectedTxtRecord;
}

/** The outcome of a custom domain's check (recorded, and applied to its tracking page). */
export class DomainVerificationState {
  @Documented({ type: 'string', required: true }) domain!: string;
  @Documented({ type: 'string', required: true, description: 'The tracking page IRI.' })
  trackingPage!: string;
  @Documented({
    type: 'boolean',
    required: true,
    description: 'The domain resolves to an address.',
  })
  accessible!: boolean;
  @Documented({
    type: 'boolean',
    required: true,
    description:
      'The CNAME points at CUSTOM_DOMAIN_CNAME_TARGET (where traffic goes; no proof by itself).',
  })
  cname!: boolean;
  @Documented({ type: 'boolean', required: true, description: 'Its TLS certificate is valid.' })
  ssl!: boolean;
  @Documented({ type: 'boolean', required: true }) verified!: boolean;
  @Documented({ type: 'string', enum: ['cname', 'txt'], nullable: true, required: true })
  method!: 'cname' | 'txt' | null;
  @Documented({ type: 'string', format: 'date-time', required: true }) checkedAt!: string;
  @Documented({ of: () => ExpectedRecords, required: true }) expected!: ExpectedRecords;
}
