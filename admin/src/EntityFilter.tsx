import { ChoiceFilter } from './ChoiceFilter';

/** The entities a custom field can belong to, as `GET /fields?entity=` names them. */
const ENTITIES = [
  { id: 'shipments', name: 'Shipments' },
  { id: 'orders', name: 'Orders' },
];

/** The custom fields list's `entity` filter (the API needs one: shipments' by default). */
export const EntityFilter = ({ source }: { source: string; alwaysOn?: boolean }) => (
  <ChoiceFilter source={source} label="Entity" choices={ENTITIES} fallback="shipments" />
);
