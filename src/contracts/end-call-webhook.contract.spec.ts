import { endCallWebhookContract } from './end-call-webhook.contract';

describe('endCallWebhookContract', () => {
  it.each<[unknown, string | null]>([
    [{ assistant_id: 'a', room_name: 'r', payload: {} }, null],
    [{ assistant_id: 'a', room_name: 'r', payload: null }, null],
    [{ assistant_id: 'a', room_name: 'r' }, 'payload is required'],
    [{ assistant_id: '', room_name: 'r', payload: {} }, 'assistant_id must be a non-empty string'],
    [{ assistant_id: 'a', room_name: 7, payload: {} }, 'room_name must be a non-empty string'],
    ['x', 'job data must be an object'],
    [
      { assistant_id: 'a', room_name: 'r', payload: { notes: ['ok', 'bad \ud800'] } },
      'payload.notes[1] must be well-formed Unicode text',
    ],
    [
      { assistant_id: 'a', room_name: 'r', payload: { ['k\udfff']: 1 } },
      'payload.k\ufffd must be well-formed Unicode text',
    ],
  ])('%j → %j', (value, problem) => {
    const parsed = endCallWebhookContract.parse(value);
    if (problem === null) expect(parsed.ok).toBe(true);
    else expect(parsed.ok ? '' : parsed.error).toContain(problem);
  });
});
