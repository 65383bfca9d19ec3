/**
 * Periods of a workflow. For webhook workflows they decide when an event's delivery is due:
 * `immediately` as it happens, `hourly` / `daily` at the next full hour / midnight (UTC) after
 * it, `manual` only when POST /workflows/execute runs the workflow. Passive integrations have
 * no executor on this side: the period is kept for the external system.
 */
export const WORKFLOW_PERIODS = ['immediately', 'hourly', 'daily', 'manual'] as const;
export type WorkflowPeriod = (typeof WORKFLOW_PERIODS)[number];

export interface WorkflowTypeSpec {
  title: string;
  /** Read-only `integrationType`: the family of the integration. */
  integrationType: string;
  /** Nothing happens on this side: no executor (the read-only `passive`). */
  passive: boolean;
  /** The external system controls the integration (the read-only `remote`). */
  remote: boolean;
  tags: string[];
  /** Credential types the workflow accepts; empty: none. */
  credentialTypes: string[];
  /** A first-time setup must be confirmed (firstTimeSetupPassed) before it counts as set up. */
  requiresSetup: boolean;
}

/**
 * The workflow types. `webhook` is executable: every event of its workspace is POSTed, signed,
 * to the URL of its `webhook` credentials. The store and fulfilment types record integrations
 * run by the external system (shipments and items point at them through
 * externalSourceIntegration / fulfillmentIntegration): passive and remote as listed here;
 * `shopify`, `woocommerce` and `bigcommerce` with credentials of their type are run by the
 * store sync instead (its WorkflowExecutor says so). `api` is any other system writing
 * through this API.
 */
export const WORKFLOW_TYPES = {
  api: {
    title: 'API integration',
    integrationType: 'custom',
    passive: true,
    remote: true,
    tags: ['custom', 'incoming'],
    credentialTypes: [],
    requiresSetup: false,
  },
  webhook: {
    title: 'Webhook',
    integrationType: 'webhook',
    passive: false,
    remote: false,
    tags: ['outgoing', 'webhook'],
    credentialTypes: ['webhook'],
    requiresSetup: false,
  },
  shopify: {
    title: 'Shopify',
    integrationType: 'ecommerce',
    passive: true,
    remote: true,
    tags: ['ecommerce', 'incoming'],
    credentialTypes: ['shopify'],
    requiresSetup: true,
  },
  woocommerce: {
    title: 'WooCommerce',
    integrationType: 'ecommerce',
    passive: true,
    remote: true,
    tags: ['ecommerce', 'incoming'],
    credentialTypes: ['woocommerce'],
    requiresSetup: true,
  },
  bigcommerce: {
    title: 'BigCommerce',
    integrationType: 'ecommerce',
    passive: true,
    remote: true,
    tags: ['ecommerce', 'incoming'],
    credentialTypes: ['bigcommerce'],
    requiresSetup: true,
  },
  magento: {
    title: 'Magento',
    integrationType: 'ecommerce',
    passive: true,
    remote: true,
    tags: ['ecommerce', 'incoming'],
    credentialTypes: ['magento'],
    requiresSetup: true,
  },
  shipstation: {
    title: 'ShipStation',
    integrationType: 'fulfillment',
    passive: true,
    remote: false,
    tags: ['fulfillment', 'incoming'],
    credentialTypes: ['shipstation'],
    requiresSetup: true,
  },
  shipbob: {
    title: 'ShipBob',
    integrationType: 'fulfillment',
    passive: true,
    remote: false,
    tags: ['fulfillment', 'incoming'],
    credentialTypes: ['shipbob'],
    requiresSetup: true,
  },
} satisfies Record<string, WorkflowTypeSpec>;

/** Store and fulfilment types also go by the reference's names: `integration-woocommerce`, ... */
const INTEGRATION_PREFIX = 'integration-';
const REFERENCE_NAMES = Object.entries(WORKFLOW_TYPES)
  .filter(
    ([, spec]) => spec.integrationType === 'ecommerce' || spec.integrationType === 'fulfillment',
  )
  .map(([name]) => `${INTEGRATION_PREFIX}${name}`);

export type WorkflowType = keyof typeof WORKFLOW_TYPES;
export const WORKFLOW_TYPE_NAMES: string[] = [...Object.keys(WORKFLOW_TYPES), ...REFERENCE_NAMES];

/** The type's own name for a reference name (`integration-shopify` -> `shopify`). */
export function canonicalWorkflowType(type: string): string {
  return typeof type === 'string' && REFERENCE_NAMES.includes(type)
    ? type.slice(INTEGRATION_PREFIX.length)
    : type;
}

export function workflowType(type: string): WorkflowTypeSpec | undefined {
  const name = canonicalWorkflowType(type);
  return Object.prototype.hasOwnProperty.call(WORKFLOW_TYPES, name)
    ? (WORKFLOW_TYPES as Record<string, WorkflowTypeSpec>)[name]
    : undefined;
}

/** The reference's webhook options (src/workflows/README.md). */
export const WEBHOOK_AUTH_TYPES = ['basic', 'bearer'] as const;
export const WEBHOOK_ENTITIES = ['shipments', 'shipment_items', 'orders', 'order_items'] as const;
export const WEBHOOK_EVENTS = ['create', 'update', 'delete'] as const;
export const MAX_WEBHOOK_CONCURRENCY = 10;

/** When a delivery of an event that occurred at `at` is first due, for a workflow's period. */
export function firstDueAt(period: string, at: Date): Date | null {
  switch (period) {
    case 'hourly': {
      const next = new Date(at);
      next.setUTCMinutes(0, 0, 0);
      next.setUTCHours(next.getUTCHours() + 1);
      return next;
    }
    case 'daily': {
      const next = new Date(at);
      next.setUTCHours(0, 0, 0, 0);
      next.setUTCDate(next.getUTCDate() + 1);
      return next;
    }
    case 'manual':
      return null;
    default:
      return at;
  }
}
