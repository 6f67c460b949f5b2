import { toolCallContract } from './tool-call.contract';

describe('toolCallContract', () => {
  it('keeps the known fields', () => {
    expect(
      toolCallContract.parse({
        tool_id: 't',
        assistant_id: 'a',
        room_name: 'r',
        arguments: { city: 'Pune' },
        extra: 1,
      }),
    ).toEqual({
      ok: true,
      data: { tool_id: 't', assistant_id: 'a', room_name: 'r', arguments: { city: 'Pune' } },
    });
    expect(toolCallContract.parse({ tool_id: 't', assistant_id: 'a', room_name: 'r' }).ok).toBe(
      true,
    );
  });

  it('keeps assistant_version, null included (the working copy, not "absent")', () => {
    const base = { tool_id: 't', assistant_id: 'a', room_name: 'r' };
    expect(toolCallContract.parse({ ...base, assistant_version: null })).toEqual({
      ok: true,
      data: { ...base, assistant_version: null },
    });
    expect(toolCallContract.parse({ ...base, assistant_version: 3 })).toEqual({
      ok: true,
      data: { ...base, assistant_version: 3 },
    });
    expect(toolCallContract.parse({ ...base, tool_call_id: null })).toEqual({
      ok: true,
      data: base,
    });
    for (const bad of [0, 1.5, '2', -1]) {
      const parsed = toolCallContract.parse({ ...base, assistant_version: bad });
      expect(parsed.ok ? '' : parsed.error).toContain(
        'assistant_version must be a published version number',
      );
    }
  });

  it.each<[unknown, string]>([
    [null, 'job data must be an object'],
    [[], 'job data must be an object'],
    [{ assistant_id: 'a', room_name: 'r' }, 'tool_id must be a non-empty string'],
    [{ tool_id: 't', assistant_id: 5, room_name: 'r' }, 'assistant_id must be a non-empty string'],
    [{ tool_id: 't', assistant_id: 'a', room_name: ' ' }, 'room_name must be a non-empty string'],
    [
      { tool_id: 't'.repeat(256), assistant_id: 'a', room_name: 'r' },
      'tool_id must be a non-empty string of at most 255 characters',
    ],
    [
      { tool_id: 't', assistant_id: 'a', room_name: 'r', arguments: { city: 'Pu\ud800ne' } },
      'arguments.city must be well-formed Unicode text',
    ],
    [
      { tool_id: 't', assistant_id: 'a', room_name: 'r\udc00' },
      'room_name must be well-formed Unicode text',
    ],
  ])('refuses %j', (data, reason) => {
    const parsed = toolCallContract.parse(data);
    expect(parsed.ok ? '' : parsed.error).toContain(reason);
  });
});
