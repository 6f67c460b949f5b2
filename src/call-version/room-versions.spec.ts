import { CallVersions } from './call-versions';
import { LocalRoomVersions, decodeVersion, encodeVersion } from './room-versions';

describe(LocalRoomVersions.name, () => {
  it('remembers a version or the working copy per (assistant, room), and forgets after the TTL', async () => {
    let now = 1_000;
    const rooms = new LocalRoomVersions(50, 100, { now: () => now });
    await rooms.remember('a-1', 'room-1', 2);
    await rooms.remember('a-1', 'room-2', null);
    expect(await rooms.recall('a-1', 'room-1')).toBe(2);
    expect(await rooms.recall('a-1', 'room-2')).toBeNull();
    expect(await rooms.recall('a-2', 'room-1')).toBeUndefined();
    now += 49;
    expect(await rooms.recall('a-1', 'room-1')).toBe(2);
    now += 2;
    expect(await rooms.recall('a-1', 'room-1')).toBeUndefined();
  });

  it('encodes versions as text and refuses anything else on the way back', () => {
    expect(decodeVersion(encodeVersion(7))).toBe(7);
    expect(decodeVersion(encodeVersion(null))).toBeNull();
    expect(decodeVersion(null)).toBeUndefined();
    expect(decodeVersion('0')).toBeUndefined();
    expect(decodeVersion('x')).toBeUndefined();
  });
});

describe(CallVersions.name, () => {
  it("uses the job's version (null included), else the room's lookup, else the working copy", async () => {
    const rooms = new LocalRoomVersions();
    await rooms.remember('a', 'pinned', 3);
    const versions = new CallVersions(rooms);
    expect(await versions.of({ assistant_id: 'a', room_name: 'pinned' })).toEqual({
      version: 3,
      source: 'lookup',
    });
    expect(
      await versions.of({ assistant_id: 'a', room_name: 'pinned', assistant_version: null }),
    ).toEqual({ version: null, source: 'job' });
    expect(
      await versions.of({ assistant_id: 'a', room_name: 'pinned', assistant_version: 1 }),
    ).toEqual({ version: 1, source: 'job' });
    expect(await versions.of({ assistant_id: 'a', room_name: 'other' })).toEqual({
      version: null,
      source: 'default',
    });
  });
});
