/**
 * The workspace the console works in. The API scopes records by workspace: lists go through
 * the workspace's nested collections (`/workspaces/{id}/shipments`), creates get its IRI.
 * Kept in this tab's sessionStorage so a reload stays in the same workspace.
 */
const KEY = 'console.workspace';

let listeners: Array<() => void> = [];
/** The current user's membership per workspace id: whether they may only read. */
const readOnlyCache = new Map<string, Promise<boolean>>();

export function workspaceId(): string | null {
  return sessionStorage.getItem(KEY);
}

export function workspaceIri(): string | null {
  const id = workspaceId();
  return id ? `/workspaces/${id}` : null;
}

export function chooseWorkspace(id: string): void {
  sessionStorage.setItem(KEY, id);
  listeners.forEach((l) => l());
}

export function onWorkspaceChange(listener: () => void): () => void {
  listeners.push(listener);
  return () => {
    listeners = listeners.filter((l) => l !== listener);
  };
}

/** Workspace lookups go through this; set by the data provider module (no import cycle). */
let membershipLookup: ((workspace: string) => Promise<boolean>) | null = null;

export function setMembershipLookup(lookup: (workspace: string) => Promise<boolean>): void {
  membershipLookup = lookup;
  readOnlyCache.clear();
}

/**
 * Whether the current user may only read the chosen workspace (a team member with read
 * access). Only decides which buttons show: the API refuses writes anyway (403).
 */
export function readOnlyIn(workspace: string | null = workspaceId()): Promise<boolean> {
  if (!workspace || !membershipLookup) return Promise.resolve(false);
  let known = readOnlyCache.get(workspace);
  if (!known) {
    known = membershipLookup(workspace).catch(() => false);
    readOnlyCache.set(workspace, known);
  }
  return known;
}
