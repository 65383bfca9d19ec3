/** Every class decorated with @ApiResource, in import order. */
export const declaredResources: Function[] = [];

export function registerResourceClass(target: Function): void {
  if (!declaredResources.includes(target)) declaredResources.push(target);
}
