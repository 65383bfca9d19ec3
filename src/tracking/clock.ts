import { Injectable } from '@nestjs/common';

/**
 * The time the tracking engine works with. Every "now" of tracking (day counters, expiry,
 * next check times, claiming due shipments) comes from here, never from `new Date()` or SQL
 * `now()`, so tests can move time: `app.get(Clock).set(date)` or `.advance(ms)`, then
 * `.reset()` to follow the system clock again.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;
  private fixed: number | null = null;

  now(): Date {
    return new Date(this.fixed ?? Date.now() + this.offsetMs);
  }

  /** Freezes the clock at `at`. */
  set(at: Date): void {
    this.fixed = at.getTime();
  }

  /** Moves the clock forward (or back, with a negative value), frozen or not. */
  advance(ms: number): void {
    if (this.fixed !== null) this.fixed += ms;
    else this.offsetMs += ms;
  }

  reset(): void {
    this.fixed = null;
    this.offsetMs = 0;
  }
}
