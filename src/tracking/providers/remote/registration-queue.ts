import type { ProviderTrackRequest } from './provider-adapter';
import { ProviderCredentialsRejected } from './provider-adapter';
import { TrackingProviderError } from '../tracking-provider-error';

/** Sends one registration request; answers per number (null: registered). */
export type SendRegistration = (
  batch: readonly ProviderTrackRequest[],
) => Promise<Map<string, TrackingProviderError | null>>;

interface Pending {
  request: ProviderTrackRequest;
  send: SendRegistration;
  done: (outcome: unknown) => void;
}

interface KeyQueue {
  items: Pending[];
  running: boolean;
}

/** How long a partial batch waits for numbers from concurrent refreshes of the same key. */
export const REGISTRATION_GATHER_MS = 50;

/**
 * Registrations per credentials, in this process: numbers from concurrent refreshes (several
 * loops, jobs, creates) join the same requests, full batches go at once, a partial one waits
 * REGISTRATION_GATHER_MS for company, and one request per key is in flight at a time. A
 * request that fails as a whole for the key (refused credentials, 429, outage) fails every
 * number still queued for that key without sending them.
 */
export class RegistrationQueue {
  private readonly queues = new Map<string, KeyQueue>();

  constructor(private readonly gatherMs = REGISTRATION_GATHER_MS) {}

  /** Per number: null when registered, else the error (an answer's or the request's). */
  register(
    key: string,
    batchSize: number,
    requests: readonly ProviderTrackRequest[],
    send: SendRegistration,
  ): Promise<Map<string, unknown>> {
    const queue = this.queues.get(key) ?? { items: [], running: false };
    this.queues.set(key, queue);
    const outcomes = requests.map(
      (request) =>
        new Promise<[string, unknown]>((resolve) =>
          queue.items.push({
            request,
            send,
            done: (outcome) => resolve([request.trackingNumber, outcome]),
          }),
        ),
    );
    void this.drain(key, queue, batchSize);
    return Promise.all(outcomes).then((pairs) => new Map(pairs));
  }

  private async drain(key: string, queue: KeyQueue, batchSize: number): Promise<void> {
    if (queue.running) return;
    queue.running = true;
    try {
      while (queue.items.length > 0) {
        if (queue.items.length < batchSize) {
          await new Promise((resolve) => setTimeout(resolve, this.gatherMs));
        }
        const batch = queue.items.splice(0, batchSize);
        try {
          const answers = await batch[0].send(batch.map((p) => p.request));
          for (const p of batch) {
            const number = p.request.trackingNumber;
            p.done(
              answers.has(number)
                ? answers.get(number)
                : TrackingProviderError.transient(`no registration answer for ${number}`),
            );
          }
        } catch (error) {
          for (const p of batch) p.done(error);
          if (stopsTheKey(error)) {
            for (const p of queue.items.splice(0)) p.done(error);
          }
        }
      }
    } finally {
      queue.running = false;
      if (queue.items.length === 0) this.queues.delete(key);
    }
  }
}

/** Errors about the provider or the key rather than one number: stop sending for now. */
export function stopsTheKey(error: unknown): boolean {
  return (
    error instanceof ProviderCredentialsRejected ||
    !(error instanceof TrackingProviderError) ||
    error.transient
  );
}
