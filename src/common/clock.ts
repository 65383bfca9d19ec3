import { Injectable } from '@nestjs/common';

/**
 * The time every expiry decision uses (access tokens, codes, refresh tokens, e-mailed
 * codes). Injected so tests can move it: `jest.spyOn(app.get(Clock), 'now')`.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }

  /** `now` plus a number of seconds. */
  in(seconds: number): Date {
    return new Date(this.now().getTime() + seconds * 1000);
  }
}
