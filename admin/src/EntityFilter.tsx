import { MenuItem, TextField } from '@mui/material';
import { useInput } from 'react-admin';

/** The entities a custom field can belong to, as `GET /fields?entity=` names them. */
const ENTITIES = [
  { id: 'shipments', name: 'Shipments' },
  { id: 'orders', name: 'Orders' },
];

/**
 * The custom fields list's `entity` filter. A plain MUI select bound through `useInput`:
 * react-admin 5's SelectInput still hands MUI 9 the removed `InputProps` prop (a React
 * warning on every render).
 */
export const EntityFilter = ({ source }: { source: string; alwaysOn?: boolean }) => {
  const { field } = useInput({ source });
  return (
    <TextField
      select
      size="small"
      label="Entity"
      name={field.name}
      value={field.value ?? 'shipments'}
      onChange={field.onChange}
      onBlur={field.onBlur}
      sx={{ minWidth: 200, mb: 1 }}
    >
      {ENTITIES.map((e) => (
        <MenuItem key={e.id} value={e.id}>
          {e.name}
        </MenuItem>
      ))}
    </TextField>
  );
};
