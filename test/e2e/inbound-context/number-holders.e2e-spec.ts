/**
 * A phone number belongs to the user who first assigned it until that user deletes every mapping
 * of it; pausing keeps it. Another user is refused with a 409 that names no one, and cannot
 * receive the holder's calls. Operators see and release holders.
 */
import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import { uniquePhoneDigits } from '../../utils/arbitraries';
import { assistantApi } from '../../api/assistant-api';
import { appSuite, type TestUser } from '../../utils/create-test-app';

describe('Phone number holders (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob'] });
  const operator = { Authorization: `Bearer ${process.env.ADMIN_API_KEY}` };

  const assistantOf = async (user: TestUser): Promise<string> =>
    (await assistantApi(suite.ctx, user).create()).assistant_id;

  const assign = (user: TestUser, assistantId: string, phone: string, extra = {}) =>
    suite.ctx
      .http()
      .post('/inbound/assign')
      .set(user.auth)
      .send({
        assistant_id: assistantId,
        service: 'exotel',
        inbound_config: { phone_number: phone },
        ...extra,
      });

  it('refuses another user a paused number with a 409 that names no one, and routes no call to them', async () => {
    const phone = uniquePhoneDigits();
    const mine = await assign(suite.alice, await assistantOf(suite.alice), `+${phone}`).expect(200);
    await suite.ctx
      .http()
      .patch(`/inbound/update/${mine.body.data.inbound_id}`)
      .set(suite.alice.auth)
      .send({ is_active: false })
      .expect(200);

    const bobsAssistant = await assistantOf(suite.bob);
    for (const extra of [{}, { is_active: false }]) {
      const squat = await assign(suite.bob, bobsAssistant, phone, extra).expect(409);
      expect(squat.body.message).toBe('This phone number is not available');
      expect(JSON.stringify(squat.body)).not.toContain(suite.alice.userId);
      expect(squat.body.data).toEqual({ code: 'conflict' });
    }
    // Moving one of bob's own mappings onto the number is refused the same way.
    const bobs = await assign(suite.bob, bobsAssistant, uniquePhoneDigits()).expect(200);
    const moved = await suite.ctx
      .http()
      .patch(`/inbound/update/${bobs.body.data.inbound_id}`)
      .set(suite.bob.auth)
      .send({ inbound_config: { phone_number: phone } })
      .expect(409);
    expect(moved.body.message).toBe('This phone number is not available');
    const list = await suite.ctx.http().get('/inbound/list').set(suite.bob.auth).expect(200);
    expect(
      list.body.data.items.map(
        (m: { phone_number_normalized: string }) => m.phone_number_normalized,
      ),
    ).not.toContain(phone);

    // The holder keeps it: reactivating and adding a second (paused) mapping both work.
    await suite.ctx
      .http()
      .patch(`/inbound/update/${mine.body.data.inbound_id}`)
      .set(suite.alice.auth)
      .send({ is_active: true })
      .expect(200);
    await assign(suite.alice, await assistantOf(suite.alice), phone, { is_active: false }).expect(
      200,
    );
  });

  it('frees the number once the holder has deleted every mapping of it', async () => {
    const phone = uniquePhoneDigits();
    const aliceAssistant = await assistantOf(suite.alice);
    const first = await assign(suite.alice, aliceAssistant, phone).expect(200);
    const second = await assign(suite.alice, aliceAssistant, phone, { is_active: false }).expect(
      200,
    );
    const bobsAssistant = await assistantOf(suite.bob);

    await suite.ctx
      .http()
      .delete(`/inbound/delete/${first.body.data.inbound_id}`)
      .set(suite.alice.auth)
      .expect(200);
    await assign(suite.bob, bobsAssistant, phone).expect(409);
    await suite.ctx
      .http()
      .delete(`/inbound/delete/${second.body.data.inbound_id}`)
      .set(suite.alice.auth)
      .expect(200);
    await assign(suite.bob, bobsAssistant, phone).expect(200);
    await assign(suite.alice, aliceAssistant, phone, { is_active: false }).expect(409);
  });

  it('moving a mapping to another number frees the old one', async () => {
    const phone = uniquePhoneDigits();
    const mine = await assign(suite.alice, await assistantOf(suite.alice), phone).expect(200);
    await suite.ctx
      .http()
      .patch(`/inbound/update/${mine.body.data.inbound_id}`)
      .set(suite.alice.auth)
      .send({ inbound_config: { phone_number: uniquePhoneDigits() } })
      .expect(200);
    await assign(suite.bob, await assistantOf(suite.bob), phone).expect(200);
  });

  it('two users claiming a fresh number at once: exactly one gets it', async () => {
    const phone = uniquePhoneDigits();
    const [a, b] = await Promise.all([assistantOf(suite.alice), assistantOf(suite.bob)]);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        i % 2 === 0
          ? assign(suite.alice, a, phone, { is_active: false })
          : assign(suite.bob, b, phone, { is_active: false }),
      ),
    );
    const accepted = results.filter((r) => r.status === 200).length;
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const held = await suite.ctx.http().get(`/admin/numbers/${phone}`).set(operator).expect(200);
    const owners = new Set(
      (held.body.data.mappings as { user_id: string }[]).map((m) => m.user_id),
    );
    expect(owners.size).toBe(1);
    expect([...owners][0]).toBe(held.body.data.user_id);
    expect(accepted).toBe(held.body.data.mappings.length);
  });

  describe('one number in several spellings', () => {
    /** A fresh Bengaluru number (80 + 8 digits) in the spellings people use for it. */
    const bengaluruNumber = () => {
      const national = `80${String((Date.now() * 7 + process.pid) % 1e8).padStart(8, '0')}`;
      const [area, a, b] = [national.slice(0, 2), national.slice(2, 6), national.slice(6)];
      return {
        canonical: `91${national}`,
        international: `+91 ${area} ${a} ${b}`,
        national: `0${area} ${a} ${b}`,
        viaInternationalPrefix: `0091 ${area} ${a} ${b}`,
        digits: `91${national}`,
      };
    };

    it("is one number: another user's assign or move in another spelling is refused, lookups reach the holder", async () => {
      const phone = bengaluruNumber();
      const alicesAssistant = await assistantOf(suite.alice);
      const mine = await assign(suite.alice, alicesAssistant, phone.international).expect(200);
      expect(mine.body.data.phone_number_normalized).toBe(phone.canonical);

      const bobsAssistant = await assistantOf(suite.bob);
      for (const spelling of [phone.national, phone.viaInternationalPrefix, phone.digits]) {
        const squat = await assign(suite.bob, bobsAssistant, spelling).expect(409);
        expect(squat.body.message).toBe('This phone number is not available');
      }
      const bobs = await assign(suite.bob, bobsAssistant, uniquePhoneDigits()).expect(200);
      await suite.ctx
        .http()
        .patch(`/inbound/update/${bobs.body.data.inbound_id}`)
        .set(suite.bob.auth)
        .send({ inbound_config: { phone_number: phone.national } })
        .expect(409);
      // The holder's own second mapping in another spelling is the same number: one active at a time.
      await assign(suite.alice, alicesAssistant, phone.viaInternationalPrefix).expect(409);

      const client = suite.ctx.app.get(InboundContextLookupClient);
      for (const spelling of [
        phone.international,
        phone.national,
        phone.viaInternationalPrefix,
        phone.digits,
      ]) {
        const result = await client.lookup(
          { room_name: `room-${randomUUID()}`, inbound_number: spelling },
          { waitMs: 15_000 },
        );
        expect({
          spelling,
          inbound_id: result.inbound_id,
          assistant_id: result.assistant_id,
        }).toEqual({
          spelling,
          inbound_id: mine.body.data.inbound_id,
          assistant_id: alicesAssistant,
        });
      }

      for (const spelling of [phone.national, phone.viaInternationalPrefix]) {
        const held = await suite.ctx
          .http()
          .get(`/admin/numbers/${encodeURIComponent(spelling)}`)
          .set(operator)
          .expect(200);
        expect(held.body.data).toMatchObject({
          phone_number_normalized: phone.canonical,
          user_id: suite.alice.userId,
        });
      }
    });

    it('answers 400 naming the field for a number that does not parse', async () => {
      const assistantId = await assistantOf(suite.alice);
      for (const bad of ['+999 123456', '+1 (23) 4', 'call me maybe']) {
        const res = await assign(suite.alice, assistantId, bad).expect(400);
        expect(res.body.data.errors).toEqual([
          {
            field: 'inbound_config.phone_number',
            message: expect.stringContaining('phone_number must be a phone number'),
          },
        ]);
      }
      const mine = await assign(suite.alice, assistantId, uniquePhoneDigits()).expect(200);
      const moved = await suite.ctx
        .http()
        .patch(`/inbound/update/${mine.body.data.inbound_id}`)
        .set(suite.alice.auth)
        .send({ inbound_config: { phone_number: '+999 123456' } })
        .expect(400);
      expect(moved.body.data.errors[0].field).toBe('inbound_config.phone_number');
      const admin = await suite.ctx
        .http()
        .get('/admin/numbers/+999123456')
        .set(operator)
        .expect(400);
      expect(admin.body.data.errors[0].field).toBe('phone_number');
    });
  });

  describe('operator routes', () => {
    it('show who holds a number and release it; 401 without the operator key', async () => {
      const phone = uniquePhoneDigits();
      const mine = await assign(suite.alice, await assistantOf(suite.alice), phone).expect(200);

      await suite.ctx.http().get(`/admin/numbers/${phone}`).expect(401);
      await suite.ctx.http().get(`/admin/numbers/${phone}`).set(suite.alice.auth).expect(401);
      await suite.ctx.http().delete(`/admin/numbers/${phone}`).set(suite.bob.auth).expect(401);

      const held = await suite.ctx.http().get(`/admin/numbers/+${phone}`).set(operator).expect(200);
      expect(held.body.data).toMatchObject({
        phone_number_normalized: phone,
        user_id: suite.alice.userId,
        mappings: [
          { inbound_id: mine.body.data.inbound_id, user_id: suite.alice.userId, is_active: true },
        ],
      });

      const released = await suite.ctx
        .http()
        .delete(`/admin/numbers/${phone}`)
        .set(operator)
        .expect(200);
      expect(released.body.data.user_id).toBe(suite.alice.userId);
      await suite.ctx
        .http()
        .get(`/inbound/details/${mine.body.data.inbound_id}`)
        .set(suite.alice.auth)
        .expect(404);
      await suite.ctx.http().get(`/admin/numbers/${phone}`).set(operator).expect(404);
      await assign(suite.bob, await assistantOf(suite.bob), phone).expect(200);
    });

    it('400 for something that is not a phone number, 404 for a number no one holds', async () => {
      const bad = await suite.ctx.http().get('/admin/numbers/abc').set(operator).expect(400);
      expect(bad.body.data.errors[0].field).toBe('phone_number');
      await suite.ctx.http().get(`/admin/numbers/${uniquePhoneDigits()}`).set(operator).expect(404);
      await suite.ctx
        .http()
        .delete(`/admin/numbers/${uniquePhoneDigits()}`)
        .set(operator)
        .expect(404);
    });
  });
});
