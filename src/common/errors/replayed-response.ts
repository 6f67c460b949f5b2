/**
 * A response already given once, to be sent again as it was (status and body), marked
 * `Idempotent-Replayed: true`. Thrown instead of running the route; the exception filter sends it.
 */
export class ReplayedResponse extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super('replayed response');
    this.name = 'ReplayedResponse';
  }
}
