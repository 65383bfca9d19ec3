import { NotBlank } from '../hydra/validation/constraints';
import { Typed } from '../hydra/validation/input-types';

/** `POST /subdomain/check`: the subdomain to check (its form is checked by the service). */
export class SubdomainCheckInput {
  @Typed('string') @NotBlank() subdomain!: string;
}

/**
 * `POST /generate_tracking_page_link(s)`: the page (id or IRI), and the shipment(s) as
 * `filter.id` (one id or IRI, or a list for the bulk action) or, for one link, `trackingNumber`.
 * `filter` is read by the service: its `id` may be a string or a list.
 */
export class GenerateLinkInput {
  @Typed('string') @NotBlank() trackingPageId!: string;
  @Typed('object') filter?: Record<string, unknown>;
  @Typed('string') trackingNumber?: string | null;
}
