import { Documented } from '../../hydra/validation/documented';

/**
 * `POST /track/{subdomain}`: the home's search form. Read leniently, like every page's form:
 * a field that is not a string, or a search that is incomplete, shows the form again with a
 * message (home-search.ts), never an API error.
 */
export class HomeSearchInput {
  @Documented({ type: 'string', enum: ['trackingNumber', 'order'], description: 'The button.' })
  by?: unknown;
  @Documented({ type: 'string', maxLength: 100 }) trackingNumber?: unknown;
  @Documented({ type: 'string', maxLength: 100 }) orderNumber?: unknown;
  @Documented({ type: 'string', description: 'The order\u2019s e-mail or phone number.' })
  contact?: unknown;
  @Documented({ type: 'string', description: 'The page\u2019s language, kept.' }) lang?: unknown;
  @Documented({ type: 'string', description: 'The page\u2019s time zone, kept.' }) tz?: unknown;
}
