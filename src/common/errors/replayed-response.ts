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

/**
 * `304 Not Modified` for a conditional GET whose `If-None-Match` names the current ETag: thrown
 * instead of answering, and sent by the exception filter with the ETag and no body.
 */
export class NotModifiedResponse extends Error {
  constructor(readonly etag: string) {
    super('not modified');
    this.name = 'NotModifiedResponse';
  }
}
