import { Module, RequestMethod, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { AdminConsoleMiddleware } from './admin-console.middleware';

/**
 * The merchant console (API Platform Admin, package `admin/`) at /admin: static files only,
 * no route of the API. Its OAuth client is registered by the migration AdminConsoleClient.
 */
@Module({ providers: [AdminConsoleMiddleware] })
export class AdminConsoleModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(AdminConsoleMiddleware)
      .forRoutes(
        { path: 'admin', method: RequestMethod.ALL },
        { path: 'admin/{*path}', method: RequestMethod.ALL },
      );
  }
}
