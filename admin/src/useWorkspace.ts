import { useEffect, useState } from 'react';
import { onWorkspaceChange, workspaceId } from './workspace';

/** The chosen workspace, following the app bar's switcher. */
export function useWorkspace(): string | null {
  const [current, setCurrent] = useState(workspaceId());
  useEffect(() => onWorkspaceChange(() => setCurrent(workspaceId())), []);
  return current;
}
