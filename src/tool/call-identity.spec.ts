import { callIdentity, canonicalJson, valueAt } from './call-identity';

const base = {
  userId: 'u1',
  roomName: 'room-1',
  toolId: 't1',
  dedupeKey: ['slot', 'customer.phone'],
  arguments: { slot: '10:00', customer: { phone: '+4930123', name: 'Ada' }, note: 'x' },
};

describe('callIdentity', () => {
  it('is the same for calls that differ only outside the dedupe key', () => {
    const again = { ...base, arguments: { ...base.arguments, note: 'again' } };
    expect(callIdentity(again)).toBe(callIdentity(base));
  });

  it('differs by owner, room, tool and selected value', () => {
    const id = callIdentity(base);
    expect(callIdentity({ ...base, userId: 'u2' })).not.toBe(id);
    expect(callIdentity({ ...base, roomName: 'room-2' })).not.toBe(id);
    expect(callIdentity({ ...base, toolId: 't2' })).not.toBe(id);
    expect(callIdentity({ ...base, arguments: { ...base.arguments, slot: '11:00' } })).not.toBe(id);
  });

  it('without a dedupe key takes every argument, in any key order', () => {
    const all = { ...base, dedupeKey: null };
    expect(
      callIdentity({
        ...all,
        arguments: { note: 'x', slot: '10:00', customer: base.arguments.customer },
      }),
    ).toBe(callIdentity(all));
    expect(callIdentity({ ...all, arguments: { ...base.arguments, note: 'y' } })).not.toBe(
      callIdentity(all),
    );
  });

  it('counts a missing path as null', () => {
    expect(valueAt({ customer: 'Ada' }, 'customer.phone')).toBeNull();
    expect(valueAt({}, 'slot')).toBeNull();
    expect(callIdentity({ ...base, arguments: { slot: '10:00' } })).toBe(
      callIdentity({ ...base, arguments: { slot: '10:00', customer: { phone: null } } }),
    );
  });

  it('writes canonical JSON with sorted keys', () => {
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe(
      '{"a":null,"b":[1,{"c":2,"d":1}]}',
    );
  });
});
