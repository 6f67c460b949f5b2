import type { SentRequestEntry } from '../activity-log/activity-log.service';
import { AppException } from '../common/errors/app.exception';
import { replaySource } from './replay-request';

const entry = (over: Partial<SentRequestEntry>): SentRequestEntry => ({
  log_id: '7',
  log_type: 'end_call_webhook',
  assistant_id: 'a',
  room_name: 'r',
  request_data: { webhook_id: 'msg_1' },
  request_body: '{"x":1}',
  trace_id: null,
  ...over,
});

const refusal = (over: Partial<SentRequestEntry>) => {
  try {
    replaySource(entry(over));
  } catch (error) {
    return error as AppException;
  }
  throw new Error('not refused');
};

describe(replaySource.name, () => {
  it('sends the kept body with the original webhook-id', () => {
    expect(replaySource(entry({}))).toMatchObject({ body: '{"x":1}', webhookId: 'msg_1' });
    const tool = entry({
      log_type: 'tool_call',
      request_data: { execution_type: 'webhook', webhook_id: 'msg_2' },
    });
    expect(replaySource(tool).webhookId).toBe('msg_2');
  });

  it.each([
    ['a lookup', { log_type: 'inbound_context_lookup' as const }, /lookup/],
    [
      'a static tool',
      { log_type: 'tool_call' as const, request_data: { execution_type: 'static_return' } },
      /not a webhook tool call/,
    ],
    ['an entry that kept no body', { request_body: null }, /kept no request/],
    ['an entry without a webhook-id', { request_data: {} }, /kept no request/],
  ])('refuses %s with a 400 naming log_id', (_name, over, message) => {
    const error = refusal(over);
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
    expect(error.data).toEqual({ errors: [{ field: 'log_id', message: error.message }] });
  });
});
