export type { Carrier, CarrierCandidate } from './carrier';
export { CARRIERS, findCarrier, trackingUrlFor, TEST_CARRIER_CODE } from './carrier-catalogue';
export { detectCarriers, normaliseTrackingNumber } from './carrier-detector';
export { resolveCarrier, resolveFromCandidates } from './carrier-resolver';
export type { CarrierResolution } from './carrier-resolver';
