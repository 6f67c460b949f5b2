import { parseLookupJobData } from './inbound-context-lookup.contract';

describe(parseLookupJobData.name, () => {
  const id = '3f2b8a4e-2c1d-4f5e-9a8b-7c6d5e4f3a2b';

  it('keeps the known fields, inbound_id or inbound_number', () => {
    expect(parseLookupJobData({ room_name: 'r1', inbound_id: id, extra: 1 })).toEqual({
      ok: true,
      data: { room_name: 'r1', inbound_id: id },
    });
    expect(
      parseLookupJobData({
        room_name: 'r1',
        inbound_number: '+91 80 1234',
        caller_number: '+1555',
        inbound_id: null,
      }),
    ).toEqual({
      ok: true,
      data: { room_name: 'r1', inbound_number: '+91 80 1234', caller_number: '+1555' },
    });
  });

  it.each([
    [null, 'job data must be an object'],
    [[], 'job data must be an object'],
    [{ inbound_id: id }, 'room_name must be a non-empty string of at most 255 characters'],
    [
      { room_name: ' ', inbound_id: id },
      'room_name must be a non-empty string of at most 255 characters',
    ],
    [{ room_name: 'r' }, 'one of inbound_id or inbound_number is required'],
    [{ room_name: 'r', inbound_id: 'nope' }, 'inbound_id must be a UUID string'],
    [
      { room_name: 'r', inbound_number: '1234' },
      'inbound_number must be a string with at least 5 digits',
    ],
    [
      { room_name: 'r', inbound_number: 12345678 },
      'inbound_number must be a string with at least 5 digits',
    ],
    [
      { room_name: 'r', inbound_id: id, caller_number: '+91\ud83d' },
      'caller_number must be well-formed Unicode text',
    ],
    [
      { room_name: 'r', inbound_id: id, caller_number: 5 },
      'caller_number must be a string of at most 64 characters',
    ],
  ])('refuses %j', (data, reason) => {
    const parsed = parseLookupJobData(data);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toContain(reason);
  });
});
