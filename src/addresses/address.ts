import { Column } from 'typeorm';
import { MaxLength } from '../hydra/validation/constraints';
import { CountryIso2 } from './address-rules';

/**
 * A mailing address embedded in its owner's row (`address_city`,
 * `shipping_address_city`, ...): shipments' `address`, orders'
 * `shippingAddress` and `billingAddress`. Every field is optional.
 */
export class Address {
  @MaxLength(255)
  @Column('text', { nullable: true })
  addressLine1: string | null;

  @MaxLength(255)
  @Column('text', { nullable: true })
  addressLine2: string | null;

  @MaxLength(255)
  @Column('text', { nullable: true })
  city: string | null;

  @MaxLength(255)
  @Column('text', { nullable: true })
  company: string | null;

  @MaxLength(255)
  @Column('text', { nullable: true })
  country: string | null;

  @CountryIso2()
  @Column('text', { nullable: true })
  countryIso2: string | null;

  @MaxLength(255)
  @Column('text', { nullable: true })
  firstName: string | null;

  @MaxLength(255)
  @Column('text', { nullable: true })
  lastName: string | null;

  @MaxLength(64)
  @Column('text', { nullable: true })
  postcode: string | null;

  @MaxLength(255)
  @Column('text', { nullable: true })
  state: string | null;
}
