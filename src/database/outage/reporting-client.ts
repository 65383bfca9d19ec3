import { Client, type ClientConfig } from 'pg';

/**
 * A node-postgres Client class that always has an 'error' listener. A pool listens to its idle
 * clients and TypeORM to the ones it holds, but a connection the server drops while it is
 * checked out between two queries emits 'error' to nobody, and an unheard 'error' event kills
 * the process (seen when PostgreSQL was killed under load). With this class, given to pools as
 * their `Client`, such an error goes to `onError` (the outage monitor); whoever holds the
 * client gets "not queryable" on its next query, which is answered 503 like any outage.
 */
export function reportingClient(onError: (error: Error) => void): typeof Client {
  return class ReportingClient extends Client {
    constructor(config?: string | ClientConfig) {
      super(config);
      this.on('error', onError);
    }
  };
}
