import { NotBlank } from '../hydra/validation/constraints';
import { Documented } from '../hydra/validation/documented';
import { Typed } from '../hydra/validation/input-types';

/** `POST /subdomain/check`: the subdomain to check (its form is checked by the service). */
export class SubdomainCheckInput {
  @Typed('string') @NotBlank() subdomain!: string;
}

/** The shipments of `POST /generate_tracking_page_link(s)` (documented; read by the service). */
export class LinkFilterInput {
  @Documented({ description: 'A shipment id or IRI, or a list of them (the bulk action).' })
  id?: unknown;
}

/**
 * `POST /generate_tracking_page_link(s)`: the page (id or IRI), and the shipment(s) as
 * `filter.id` (one id or IRI, or a list for the bulk action) or, for one link, `trackingNumber`.
 * `filter` is read by the service: its `id` may be a string or a list.
 */
export class GenerateLinkInput {
  @Typed('string') @NotBlank() trackingPageId!: string;
  @Typed('object') @Documented({ of: () => LinkFilterInput }) filter?: Record<string, unknown>;
  @Typed('string') trackingNumber?: string | null;
}
