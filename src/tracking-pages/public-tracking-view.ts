import { getName } from 'i18n-iso-countries';
import type { DropshipperSettings } from './dropshipper-settings';

export interface PublicShipment {
  trackingNumber: string | null;
  trackingStatus: string | null;
  originCarrier: string | null;
  destinationCarrier: string | null;
  originCountry: string | null;
  originCountryIso2: string | null;
  destinationCountry: string | null;
  destinationCountryIso2: string | null;
  shippedAt: string | null;
  expectedDeliveryDate: string | null;
  lastStatusUpdate: string | null;
  daysInTransit: number | null;
  createdAt: string;
  /** The delivery window when the carrier gave no date (src/predictions), else null. */
  deliveryWindow?: { earliest: string; latest: string } | null;
  /** Past the window announced or the promised date (attention `late`). */
  runningLate?: boolean;
}

export interface PublicCheckpoint {
  checkpointDate: string;
  status: string;
  info: string | null;
  location: string | null;
  countryIso2: string | null;
  carrier: string | null;
  /** True for the stand-in shown before the first real checkpoint (dropshipper setting). */
  placeholder?: boolean;
}

const HIEROGLYPHS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Stop words are separated by commas or new lines. */
export function parseStopWords(stopWords: string | null): string[] {
  return (stopWords ?? '')
    .split(/[,\n]/)
    .map((w) => w.trim())
    .filter(Boolean);
}

function cleanText(
  text: string | null,
  settings: DropshipperSettings,
  stopWords: string[],
): string | null {
  if (text === null) return null;
  let out = text;
  if (settings.hideHieroglyphs) out = out.replace(HIEROGLYPHS, ' ');
  for (const word of stopWords)
    out = out.replace(
      new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(word)}(?=$|[^\\p{L}\\p{N}])`, 'giu'),
      '$1',
    );
  out = out.replace(/\s{2,}/g, ' ').replace(/^[\s,;:-]+|[\s,;:-]+$/g, '');
  return out === '' ? null : out;
}

/**
 * What the public tracking page shows of a shipment. With dropshipper settings enabled it
 * hides blacklisted carriers, replaces the origin country, strips CJK characters and stop
 * words from checkpoint texts, and shows a placeholder checkpoint before the first real one,
 * so end customers do not see where the goods come from. Never includes contact data.
 */
export function publicTrackingView(
  shipment: PublicShipment,
  checkpoints: PublicCheckpoint[],
  settings: DropshipperSettings,
): { shipment: PublicShipment; checkpoints: PublicCheckpoint[] } {
  if (!settings.enabled) return { shipment, checkpoints };
  const blacklist = new Set((settings.blacklistCarriers ?? []).map((c) => c.toLowerCase()));
  const carrier = (c: string | null) => (c && blacklist.has(c.toLowerCase()) ? null : c);
  const stopWords = parseStopWords(settings.stopWords);
  const replacement = settings.originCountryReplacement;
  const view: PublicShipment = {
    ...shipment,
    originCarrier: carrier(shipment.originCarrier),
    destinationCarrier: carrier(shipment.destinationCarrier),
    ...(replacement
      ? { originCountryIso2: replacement, originCountry: getName(replacement, 'en') ?? null }
      : {}),
  };
  const cleaned = checkpoints.map((c) => ({
    ...c,
    carrier: carrier(c.carrier),
    info: cleanText(c.info, settings, stopWords),
    location: cleanText(c.location, settings, stopWords),
    countryIso2:
      replacement && c.countryIso2 && c.countryIso2 === shipment.originCountryIso2
        ? replacement
        : c.countryIso2,
  }));
  if (cleaned.length === 0 && settings.displayPlaceholderCheckpoints) {
    cleaned.push({
      checkpointDate: shipment.createdAt,
      status: 'pre_transit',
      info: 'Order processed: shipping information received',
      location: null,
      countryIso2: null,
      carrier: null,
      placeholder: true,
    });
  }
  return { shipment: view, checkpoints: cleaned };
}
