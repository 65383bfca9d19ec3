import { MenuItem, TextField } from '@mui/material';
import { useInput } from 'react-admin';

export interface Choice {
  id: string;
  name: string;
}

/**
 * A list filter chosen from fixed values (the custom fields' `entity`, a shipment's
 * `attention`). A plain MUI select bound through `useInput`: react-admin 5's SelectInput still
 * hands MUI 9 the removed `InputProps` prop (a React warning on every render).
 */
export const ChoiceFilter = ({
  source,
  label,
  choices,
  fallback = '',
}: {
  source: string;
  label: string;
  choices: readonly Choice[];
  /** The value shown while the filter has none. */
  fallback?: string;
  alwaysOn?: boolean;
}) => {
  const { field } = useInput({ source });
  return (
    <TextField
      select
      size="small"
      label={label}
      name={field.name}
      value={field.value ?? fallback}
      onChange={field.onChange}
      onBlur={field.onBlur}
      sx={{ minWidth: 200, mb: 1 }}
    >
      {choices.map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
};
