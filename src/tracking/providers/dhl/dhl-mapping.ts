import { createHash } from 'node:crypto';
import type { RemoteCheckpoint } from '../remote/provider-adapter';
import type { TrackingResult } from '../tracking-provider';
import { dhlInstant } from './dhl-dates';
import { dhlCarrierOf } from './dhl-services';
import { dhlStatus } from './dhl-statuses';

interface DhlAddress {
  addressLocality?: string;
  countryCode?: string;
  postalCode?: string;
}

export interface DhlEvent {
  timestamp?: string;
  location?: { address?: DhlAddress };
  statusCode?: string;
  status?: string;
  statusDetailed?: string;
  description?: string;
  remark?: string;
}

export interface DhlShipment {
  id?: string;
  service?: string;
  origin?: { address?: DhlAddress };
  destination?: { address?: DhlAddress };
  status?: DhlEvent;
  estimatedTimeOfDelivery?: string;
  estimatedDeliveryTimeFrame?: { estimatedFrom?: string; estimatedThrough?: string };
  returnFlag?: boolean;
  events?: DhlEvent[];
}

export interface DhlTrackingShipments {
  shipments?: DhlShipment[];
}

function country(address: DhlAddress | undefined): string | null {
  const code = (address?.countryCode ?? '').trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : null;
}

function words(event: DhlEvent): string {
  const description = (event.description ?? '').trim();
  return description !== '' ? description : (event.status ?? '').trim();
}

export function dhlCheckpoint(
  event: DhlEvent,
  carrierCode: string,
  returnFlag: boolean,
): RemoteCheckpoint | null {
  const checkpointDate = dhlInstant(event.timestamp);
  if (!checkpointDate) return null;
  const code = (event.statusCode ?? '').trim().toLowerCase();
  const info = words(event);
  const place = (event.location?.address?.addressLocality ?? '').trim();
  // UTAPI events carry no id: timestamp, code, place and wording are what stays stable.
  const digest = createHash('sha1').update(`${place}\n${info}`).digest('hex').slice(0, 12);
  return {
    externalId: `dhl:${(event.timestamp ?? '').trim()}:${code}:${digest}`,
    checkpointDate,
    status: dhlStatus({
      statusCode: code,
      status: event.status,
      description: event.description,
      returnFlag,
    }),
    info,
    location: place !== '' ? place : null,
    countryIso2: country(event.location?.address),
    carrierCode,
    rel: 'origin',
    rawStatus: [code, (event.status ?? '').trim()].filter((p) => p !== '').join('/') || null,
  };
}

export function mapDhlShipment(shipment: DhlShipment): TrackingResult {
  const carrierCode = dhlCarrierOf(shipment.service);
  const returnFlag = shipment.returnFlag === true;
  const events = shipment.events?.length
    ? shipment.events
    : shipment.status
      ? [shipment.status]
      : [];
  const seen = new Map<string, RemoteCheckpoint>();
  for (const event of events) {
    const c = dhlCheckpoint(event, carrierCode, returnFlag);
    if (c && !seen.has(c.externalId)) seen.set(c.externalId, c);
  }
  const frame = shipment.estimatedDeliveryTimeFrame;
  return {
    checkpoints: [...seen.values()],
    facts: {
      expectedDeliveryDate:
        dhlInstant(shipment.estimatedTimeOfDelivery) ??
        dhlInstant(frame?.estimatedThrough) ??
        dhlInstant(frame?.estimatedFrom),
      originCountryIso2: country(shipment.origin?.address),
      destinationCountryIso2: country(shipment.destination?.address),
    },
  };
}

/**
 * The shipment answering a number: several DHL divisions may know the same number, so the
 * one whose service matches the carrier we asked for wins, else the first.
 */
export function pickDhlShipment(body: unknown, carrierCode: string | null): DhlShipment | null {
  const shipments = (body as DhlTrackingShipments | null)?.shipments ?? [];
  if (carrierCode) {
    const match = shipments.find((s) => dhlCarrierOf(s.service) === carrierCode);
    if (match) return match;
  }
  return shipments[0] ?? null;
}
