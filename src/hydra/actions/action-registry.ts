import type { ActionDeclaration } from './action-declaration';

export interface DeclaredAction {
  controller: Function;
  handler: string | symbol;
  declaration: ActionDeclaration;
}

const declared: DeclaredAction[] = [];

/** Every `@Action` of the code base, for the docs, start-up checks and the role walk. */
export function declareAction(
  controller: Function,
  handler: string | symbol,
  declaration: ActionDeclaration,
): void {
  declared.push({ controller, handler, declaration });
}

export function declaredActions(): readonly DeclaredAction[] {
  return declared;
}
