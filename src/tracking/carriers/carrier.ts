/** A carrier as the API shows it (`/public/carriers`), plus what tracking needs. */
export interface Carrier {
  /** Lowercase slug, the identifier used in `originCarrier` / `destinationCarrier`. */
  code: string;
  name: string;
  phone: string | null;
  /** Homepage. */
  url: string | null;
  /** Logo URL; null while we ship no logo assets. */
  image: string | null;
  countryIso2Codes: string[];
  description: string | null;
  /** Public tracking page with a `{trackingNumber}` placeholder, when the carrier has one. */
  trackingUrlTemplate: string | null;
  /** Days after which a shipment still in transit counts as over the limit, when known. */
  transitLimitDays?: number;
}

/** One carrier a tracking number may belong to, as found by the detector. */
export interface CarrierCandidate {
  carrierCode: string;
  carrierName: string;
  /** The format that matched best for this carrier (e.g. "UPS 1Z", "S10 international"). */
  formatName: string;
  /** Id of that format (stable, e.g. `ups-1z`). */
  formatId: string;
  /** Higher is more certain; only meaningful relative to other candidates. */
  score: number;
  /** True when the number passed the format's check-digit algorithm. */
  checksumValidated: boolean;
}
