import type { OwnershipConfig } from './table-ownership';

/**
 * Who owns the tables that have no entity class (a join table, an outbox, a counter): the
 * module whose store writes their SQL. Tables with an entity are owned by the module whose
 * folder declares it (`@Entity('x')`).
 */
export const ARCHITECTURE: OwnershipConfig = {
  tableOwners: {
    shipment_order: 'shipments', // the join table of Shipment.orders (@JoinTable)
    shipment_remote_tracking: 'tracking',
    remote_tracking_stop: 'tracking',
    retired_tracking_credentials: 'tracking',
    outbox_event: 'events',
    event_delivery: 'events',
    workflow_suggestion: 'workflows',
    user_token: 'security',
    tracking_page_link: 'tracking-pages',
    subscription: 'billing',
    billing_checkout: 'billing',
    billing_webhook_event: 'billing',
    rate_limit_counter: 'rate-limit',
    api_rate_counter: 'rate-limit',
    idempotency_key: 'idempotency',
    oauth_refresh_token: 'auth',
    oauth_authorization_code: 'auth',
    media_file_gc: 'media',
    integration_link: 'integrations',
    storefront_installation_use: 'integrations',
    generated_theme: 'themes',
    fixture_user: 'fixtures',
    fixture_load: 'fixtures',
    domain_verification: 'domains',
    maintained_count: 'hydra',
    prediction_contribution: 'predictions',
    delivery_stat: 'predictions',
    attention_digest: 'predictions',
    store_sync_state: 'store-sync',
    store_sync_record: 'store-sync',
    store_sync_inbox: 'store-sync',
    store_sync_push: 'store-sync',
    carrier_performance_stat: 'predictions',
    carrier_performance_folded: 'predictions',
  },
  exceptions: {
    // Bulk loads write every seeded table in set-based statements, as migrations do.
    'src/seed/bulk-seeder.ts': 'bulk seeder',
    'src/seed/deferred-indexes.ts': 'bulk seeder: index rebuild of the seeded tables',
  },
};
