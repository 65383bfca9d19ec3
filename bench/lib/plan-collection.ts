import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app.module';
import { PrincipalLoader } from '../../src/access/principal-loader';
import { DataProvider } from '../../src/hydra/collection/data-provider';
import { ResourceRegistry } from '../../src/hydra/metadata/resource-registry';
import { QueryParams } from '../../src/hydra/core/query-params';

/**
 * The SQL the API runs for each URL, taken from the Hydra layer itself, so
 * the bare server executes exactly the same statements.
 */
export async function planCollection(databaseUrl: string, userId: string, urls: string[]) {
  process.env.DATABASE_URL = databaseUrl;
  process.env.LOG_LEVEL = 'warn';
  const ctx = await NestFactory.createApplicationContext(AppModule, { logger: false });
  try {
    const registry = ctx.get(ResourceRegistry);
    const data = ctx.get(DataProvider);
    const principal = await ctx.get(PrincipalLoader).forUser(userId);
    return urls.map((url) => {
      const path = url.split('?')[0];
      const resource = registry.all().find((r) => r.path === path);
      if (!resource) throw new Error(`no resource at ${path}`);
      return { url, ...data.plan({ resource, principal, params: QueryParams.fromUrl(url) }) };
    });
  } finally {
    await ctx.close();
  }
}
