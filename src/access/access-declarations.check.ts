import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ACCESS } from './access.decorator';

/**
 * Start-up check: every route handler declares its access (a resource operation, an
 * `@Action`, or `@Access`/`@Public`). A route without one stops the application, so a new
 * endpoint cannot ship open or closed by accident.
 */
@Injectable()
export class AccessDeclarationsCheck implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const undeclared = undeclaredRoutes(this.discovery, this.scanner, this.reflector);
    if (undeclared.length) {
      throw new Error(`Routes without an access declaration: ${undeclared.join(', ')}`);
    }
  }
}

export function undeclaredRoutes(
  discovery: DiscoveryService,
  scanner: MetadataScanner,
  reflector: Reflector,
): string[] {
  const missing: string[] = [];
  for (const wrapper of discovery.getControllers()) {
    const instance = wrapper.instance as object | undefined;
    if (!instance) continue;
    const proto = Object.getPrototypeOf(instance) as Record<string, Function>;
    for (const name of scanner.getAllMethodNames(proto)) {
      const handler = proto[name];
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      if (!reflector.getAllAndOverride(ACCESS, [handler, instance.constructor]))
        missing.push(`${instance.constructor.name}.${name}`);
    }
  }
  return missing;
}
