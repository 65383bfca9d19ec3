import { MenuItem, TextField } from '@mui/material';
import { useEffect } from 'react';
import { useGetList, useRefresh } from 'react-admin';
import { useWorkspace } from './useWorkspace';
import { chooseWorkspace } from './workspace';

/**
 * The workspace every list and create works in (the API scopes records by workspace). The
 * first one is chosen until the user picks another.
 */
export const WorkspaceSwitcher = () => {
  const refresh = useRefresh();
  const current = useWorkspace();
  const { data, isPending } = useGetList('workspaces', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'createdAt', order: 'ASC' },
  });
  useEffect(() => {
    if (!data?.length) return;
    const ids = data.map((w) => String(w.originId ?? w.id));
    if (!current || !ids.includes(current)) {
      chooseWorkspace(ids[0]);
      refresh();
    }
  }, [data, current, refresh]);
  if (isPending || !data?.length) return null;
  return (
    <TextField
      select
      size="small"
      label="Workspace"
      value={current ?? ''}
      onChange={(e) => {
        chooseWorkspace(e.target.value);
        refresh();
      }}
      // On the paper colour, not the app bar's: the label keeps its contrast.
      sx={{ flex: '0 0 240px', ml: 2, bgcolor: 'background.paper', borderRadius: 1 }}
    >
      {data.map((w) => (
        <MenuItem key={w.id} value={String(w.originId ?? w.id)}>
          {w.title}
        </MenuItem>
      ))}
    </TextField>
  );
};
