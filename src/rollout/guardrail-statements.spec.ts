import type { LogRow } from '../activity-log/group-commit.types';
import { failsItsRoom, splitCallOf } from './guardrail-statements';

const row = (over: Partial<LogRow>): LogRow =>
  ({
    user_id: 'u1',
    room_name: 'room-1',
    status: 'success',
    error_class: null,
    request_data: {},
    response_data: {},
    timestamp: new Date('2026-01-01T00:00:00Z'),
    ...over,
  }) as LogRow;

describe('what fails a guarded call', () => {
  it('a tool call that ended in error, unless cancelled', () => {
    expect(
      failsItsRoom(row({ log_type: 'tool_call', status: 'error', error_class: 'http_5xx' })),
    ).toBe(true);
    expect(
      failsItsRoom(row({ log_type: 'tool_call', status: 'error', error_class: 'cancelled' })),
    ).toBe(false);
    expect(failsItsRoom(row({ log_type: 'tool_call', status: 'success' }))).toBe(false);
  });

  it("an end-call delivery's last attempt in error; an attempt the service retries is not the end", () => {
    const attempt = (willRetry: boolean) =>
      row({
        log_type: 'end_call_webhook',
        status: 'error',
        error_class: 'http_5xx',
        response_data: { status_code: 500, will_retry: willRetry },
      });
    expect(failsItsRoom(attempt(false))).toBe(true);
    expect(failsItsRoom(attempt(true))).toBe(false);
  });

  it('no other entry fails a room (a lookup counts through its own call, event deliveries not at all)', () => {
    for (const log_type of ['inbound_context_lookup', 'event_delivery'] as const)
      expect(failsItsRoom(row({ log_type, status: 'error', error_class: 'http_5xx' }))).toBe(false);
  });

  it("a guarded lookup's call failed when its context failed or the fallback rendered", () => {
    const lookup = (over: Partial<LogRow>) =>
      splitCallOf(
        row({
          log_type: 'inbound_context_lookup',
          request_data: { guardrail: true, variant: 1, inbound_id: 'in-1', assistant_version: 2 },
          ...over,
        }),
      );
    expect(lookup({})).toMatchObject({ variant: 1, assistant_version: 2, failed: false });
    expect(lookup({ status: 'error' })?.failed).toBe(true);
    expect(lookup({ response_data: { fallback_used: true } })?.failed).toBe(true);
    // Not a guarded split's lookup: no call.
    expect(splitCallOf(row({ log_type: 'inbound_context_lookup', request_data: {} }))).toBeNull();
  });
});
