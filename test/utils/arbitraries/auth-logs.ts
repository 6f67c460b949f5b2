import fc from 'fast-check';
import { type Body, dropUndefined, partial } from './helpers';
import { boundedText, plainWord, uniqueSuffix } from './text';

export function createKeyArb(): fc.Arbitrary<Body> {
  return fc
    .record({
      user_name: boundedText(1, 100),
      local: plainWord(1, 30).map((w) => w.replace(/^[-_]+|[-_]+$/g, '') || 'u'),
      org_name: fc.option(boundedText(1, 100), { nil: undefined }),
    })
    .map(({ local, ...rest }) =>
      dropUndefined({ ...rest, user_email: `${local}.${uniqueSuffix()}@example.com` }),
    );
}

export const LOG_TYPES = ['tool_call', 'end_call_webhook', 'inbound_context_lookup'] as const;

/** Valid `GET /logs` query parameters (values as they appear in the query string). */
export function logsQueryArb(assistantIds: string[]): fc.Arbitrary<Record<string, string>> {
  return partial({
    log_type: fc.constantFrom(...LOG_TYPES),
    assistant_id: fc.oneof(fc.constantFrom(...assistantIds), fc.uuid()),
    room_name: boundedText(1, 100).filter((s) => s.trim() !== '' && !s.includes('\u0000')),
    status: fc.constantFrom('success', 'error'),
    from: fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    to: fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    page: fc.integer({ min: 1, max: 1000 }).map(String),
    limit: fc.integer({ min: 1, max: 100 }).map(String),
  }).map((query) => query as Record<string, string>);
}
