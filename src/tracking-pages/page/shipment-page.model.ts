import type { PublicCheckpoint, PublicShipment } from '../public-tracking-view';
import { pageDates } from './dates';
import { LANGUAGE_NAMES, MESSAGES, fill, type Messages, type PageLanguage } from './i18n/messages';
import { type PageBrand } from './page-brand';
import type { PageCarrier, PageItem, SiblingParcel } from './shipment-page.reads';
import { PROGRESS_STEPS, progressOf } from './status-progress';

/** Checkpoints shown at once; older ones are behind a "show all" disclosure. */
const RECENT_CHECKPOINTS = 5;

/** Shipment fields a page may name in `sidebarField` / `trackingNumberField`. */
export interface FieldSource {
  trackingNumber: string | null;
  orderNumbers: string[];
  customFields: Record<string, unknown>;
}

/**
 * The value of a page's field setting for a shipment: `trackingNumber` (also when unset),
 * `orderNumbers`, or a shipment custom field by code (`customFields.<code>` or `<code>`).
 * Falls back to the tracking number when the field is empty.
 */
export function fieldValue(field: string | null, s: FieldSource): string | null {
  const name = (field ?? '').trim();
  const fallback = s.trackingNumber;
  if (name === '' || name === 'trackingNumber') return fallback;
  if (name === 'orderNumbers' || name === 'orderNumber')
    return s.orderNumbers.length ? s.orderNumbers.join(', ') : fallback;
  const code = name.startsWith('customFields.') ? name.slice('customFields.'.length) : name;
  const value = s.customFields[code];
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return fallback;
}

/** The label of a field setting's value. */
export function fieldLabel(field: string | null, m: Messages): string {
  const name = (field ?? '').trim();
  return name === 'orderNumbers' || name === 'orderNumber' ? m.orderNumber : m.trackingNumber;
}

/**
 * A checkpoint's place for people: `Lille, FR` with country FR reads `Lille, France` (the
 * country named in the page's language), the country alone when there is no location.
 */
export function placeOf(
  location: string | null,
  iso2: string | null,
  countryName: string | null,
): string | null {
  const base = (location ?? '').trim();
  if (!countryName) return base || null;
  const withoutCode = iso2 ? base.replace(new RegExp(`,?\\s*${iso2}$`), '') : base;
  if (withoutCode.toLowerCase().endsWith(countryName.toLowerCase())) return withoutCode;
  return withoutCode ? `${withoutCode}, ${countryName}` : countryName;
}

/** The carrier's own tracking page for a number, from its catalogue template (https only). */
export function carrierTrackingUrl(
  template: string | null,
  trackingNumber: string | null,
): string | null {
  if (!template || !trackingNumber || !template.startsWith('https://')) return null;
  if (!template.includes('{trackingNumber}')) return null;
  return template.split('{trackingNumber}').join(encodeURIComponent(trackingNumber));
}

export interface ShipmentPageInput {
  lang: PageLanguage;
  timeZone: string;
  /** The zone came from `?tz=`: links keep it (else the browser's zone may apply). */
  tzFixed: boolean;
  brand: PageBrand;
  hash: string;
  shipment: PublicShipment & { reviewTotalScore: number | null };
  checkpoints: PublicCheckpoint[];
  fields: { sidebarField: string | null; trackingNumberField: string | null };
  extras: { orderNumbers: string[]; customFields: Record<string, unknown> };
  carriers: Map<string, PageCarrier>;
  items: PageItem[];
  itemImage: (url: string | null) => string | null;
  siblings: Array<SiblingParcel & { hash: string }>;
  reviewsEnabled: boolean;
  /** `thanks` after a review was taken, `invalid` after one was refused. */
  reviewOutcome: 'thanks' | 'invalid' | null;
}

/** Everything the shipment template shows, computed: the template only lays it out. */
export function shipmentPageModel(input: ShipmentPageInput) {
  const m = MESSAGES[input.lang];
  const dates = pageDates(input.lang, input.timeZone);
  const s = input.shipment;
  const progress = progressOf(s.trackingStatus, s.shippedAt);
  const words = m.statuses[progress.status];
  const regions = dates.regions;
  const country = (iso2: string | null, name: string | null) => {
    if (iso2 && /^[A-Z]{2}$/.test(iso2)) {
      try {
        return regions.of(iso2) ?? name;
      } catch {
        return name;
      }
    }
    return name;
  };
  const carrierCode = s.destinationCarrier ?? s.originCarrier;
  const carrier = carrierCode ? input.carriers.get(carrierCode) : undefined;
  const delivered = s.trackingStatus === 'delivered';
  const deliveredAt = delivered
    ? (input.checkpoints.find((c) => c.status === 'delivered')?.checkpointDate ??
      s.lastStatusUpdate)
    : null;
  const source = {
    trackingNumber: s.trackingNumber,
    orderNumbers: input.extras.orderNumbers,
    customFields: input.extras.customFields,
  };
  const query = (extra: Record<string, string> = {}) =>
    '?' +
    new URLSearchParams({
      lang: input.lang,
      ...(input.tzFixed ? { tz: input.timeZone } : {}),
      ...extra,
    }).toString();
  const stepLabels = PROGRESS_STEPS.map((step) => m.steps[step]);
  const timeline = input.checkpoints.map((c) => ({
    iso: c.checkpointDate,
    when: dates.dateTimeOf(c.checkpointDate),
    title: (m.statuses as Record<string, { title: string }>)[c.status]?.title ?? c.status,
    // The dropshipper placeholder's English text, in the page's language.
    info: c.placeholder ? m.statuses.pre_transit.line : c.info,
    location: placeOf(c.location, c.countryIso2, country(c.countryIso2, null)),
  }));

  return {
    m,
    lang: input.lang,
    timeZone: input.timeZone,
    tzFixed: input.tzFixed,
    zoneLabel: fill(m.timesIn, { zone: dates.zoneLabel() }),
    brand: input.brand,
    pageTitle: `${words.title} · ${input.brand.title}`,
    status: { code: progress.status, title: words.title, line: words.line },
    steps: stepLabels.map((label, i) => {
      const exception = progress.exception && i === progress.current ? progress.exception : null;
      return {
        label: exception ? m.statuses[exception.status].title : label,
        state: i < progress.current ? 'done' : i === progress.current ? 'current' : 'todo',
        tone: exception?.tone ?? null,
      };
    }),
    delivery: delivered
      ? { label: m.deliveredOn, value: dates.dayOf(deliveredAt), iso: deliveredAt }
      : s.deliveryWindow
        ? {
            // Our window (no carrier date): its days, not a single made-up day.
            label: m.arrives,
            value: dates.dayRangeOf(s.deliveryWindow.earliest, s.deliveryWindow.latest),
            iso: s.deliveryWindow.earliest,
            range: true,
          }
        : s.expectedDeliveryDate
          ? {
              label: m.expectedDelivery,
              value: dates.dayOf(s.expectedDeliveryDate),
              iso: s.expectedDeliveryDate,
            }
          : null,
    runningLate: !delivered && s.runningLate ? m.runningLate : null,
    number: {
      label: fieldLabel(input.fields.trackingNumberField, m),
      value: fieldValue(input.fields.trackingNumberField, source),
    },
    carrier: carrier
      ? {
          name: carrier.name,
          url: carrierTrackingUrl(carrier.trackingUrlTemplate, s.trackingNumber),
          linkText: fill(m.trackOnCarrierSite, { carrier: carrier.name }),
        }
      : null,
    route: {
      from: country(s.originCountryIso2, s.originCountry),
      to: country(s.destinationCountryIso2, s.destinationCountry),
    },
    lastUpdate: s.lastStatusUpdate
      ? { text: dates.dateTimeOf(s.lastStatusUpdate), iso: s.lastStatusUpdate }
      : null,
    checkpoints: timeline.slice(0, RECENT_CHECKPOINTS),
    olderCheckpoints: timeline.slice(RECENT_CHECKPOINTS),
    showAllUpdates: fill(m.showAllUpdates, { count: timeline.length }),
    items: input.items.map((item) => ({
      name: item.name ?? item.sku ?? '—',
      qty: item.qty,
      image: input.itemImage(item.imageUrl),
      initial: (item.name ?? item.sku ?? '?').trim().charAt(0).toUpperCase() || '?',
    })),
    order: input.extras.orderNumbers.length
      ? fill(m.order, { number: input.extras.orderNumbers.join(', ') })
      : null,
    siblings: input.siblings.map((p) => {
      const sp = progressOf(p.trackingStatus, p.shippedAt ? p.shippedAt.toISOString() : null);
      return {
        href: `/t/${encodeURIComponent(p.hash)}${query()}`,
        label: fieldValue(input.fields.sidebarField, p) ?? m.parcel,
        status: m.statuses[sp.status].title,
        tone: sp.exception?.tone ?? (sp.status === 'delivered' ? 'done' : null),
      };
    }),
    sidebarLabel: fieldValue(input.fields.sidebarField, source) ?? m.parcel,
    review:
      input.reviewsEnabled && delivered
        ? {
            action: `/public/tracking_page_links/${encodeURIComponent(input.hash)}/reviews`,
            given: s.reviewTotalScore,
            givenText:
              s.reviewTotalScore !== null
                ? fill(m.reviewYourScore, { score: Math.round(s.reviewTotalScore * 10) / 10 })
                : null,
            outcome: input.reviewOutcome,
            stars: [5, 4, 3, 2, 1].map((n) => ({
              value: n,
              label: fill(n === 1 ? m.star : m.stars, { count: n }),
            })),
          }
        : null,
    languages: languageLinks(input.lang, (lang) => query({ lang })),
  };
}

export type ShipmentPageModel = ReturnType<typeof shipmentPageModel>;

/** The language menu: one link per language, the current one marked. */
export function languageLinks(current: PageLanguage, href: (lang: PageLanguage) => string) {
  return (Object.keys(MESSAGES) as PageLanguage[]).map((lang) => ({
    lang,
    href: href(lang),
    name: LANGUAGE_NAMES[lang],
    current: lang === current,
  }));
}
