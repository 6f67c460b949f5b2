import { digitsOf, uniquePhone } from '../../fixtures/inbound';
import { inboundContextSuite } from '../../fixtures/inbound-context';

describe('Inbound mappings (e2e)', () => {
  const { suite, api, newAssistant, newStrategy, setup } = inboundContextSuite();

  describe('inbound mappings', () => {
    it('assigns a number, stored as sent and normalized', async () => {
      const assistant = await newAssistant(suite.alice);
      const phone = uniquePhone();
      const res = await api
        .assign(suite.alice, {
          assistant_id: assistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: phone },
        })
        .expect(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Inbound number assigned',
        data: {
          inbound_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          assistant_id: assistant.assistant_id,
          assistant_version: null,
          assistant_variants: null,
          inbound_context_strategy_id: null,
          service: 'exotel',
          inbound_config: { phone_number: phone },
          phone_number_normalized: digitsOf(phone),
          is_active: true,
          // No inbound policy, environment or guardrail unless the body sets them.
          policy: null,
          environment: null,
          guardrail: null,
          guardrail_state: null,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      });
    });

    it('refuses fewer than 5 digits, unknown services and missing numbers (400)', async () => {
      const assistant = await newAssistant(suite.alice);
      const base = { assistant_id: assistant.assistant_id, service: 'exotel' };
      const short = await api
        .assign(suite.alice, { ...base, inbound_config: { phone_number: '+1 (23) 4' } })
        .expect(400);
      expect(short.body.data.errors[0].field).toBe('inbound_config.phone_number');
      await api
        .assign(suite.alice, {
          ...base,
          service: 'twilio',
          inbound_config: { phone_number: uniquePhone() },
        })
        .expect(400);
      const missing = await api.assign(suite.alice, { ...base }).expect(400);
      expect(missing.body.data.errors.map((e: { field: string }) => e.field)).toContain(
        'inbound_config',
      );
    });

    it('allows one active mapping per normalized number (409), also under concurrent assigns', async () => {
      const assistant = await newAssistant(suite.alice);
      const phone = uniquePhone();
      await api
        .assign(suite.alice, {
          assistant_id: assistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: phone },
        })
        .expect(200);
      const reformatted = digitsOf(phone).replace(/^(\d{2})/, '+$1-');
      const dup = await api
        .assign(suite.bob, {
          assistant_id: (await newAssistant(suite.bob)).assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: reformatted },
        })
        .expect(409);
      expect(dup.body.success).toBe(false);

      const racePhone = uniquePhone();
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          api.assign(suite.alice, {
            assistant_id: assistant.assistant_id,
            service: 'exotel',
            inbound_config: { phone_number: racePhone },
          }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    });

    it('frees a number when its mapping is deactivated or deleted', async () => {
      const assistant = await newAssistant(suite.alice);
      const phone = uniquePhone();
      const body = {
        assistant_id: assistant.assistant_id,
        service: 'exotel',
        inbound_config: { phone_number: phone },
      };
      const first = await api.assign(suite.alice, body).expect(200);
      await api
        .updateMapping(suite.alice, first.body.data.inbound_id, { is_active: false })
        .expect(200);
      const second = await api.assign(suite.alice, body).expect(200);
      await api
        .updateMapping(suite.alice, first.body.data.inbound_id, { is_active: true })
        .expect(409);
      await suite.ctx
        .http()
        .delete(`/inbound/delete/${second.body.data.inbound_id}`)
        .set(suite.alice.auth)
        .expect(200);
      await api
        .updateMapping(suite.alice, first.body.data.inbound_id, { is_active: true })
        .expect(200);
    });

    it('requires the assistant and strategy to be the caller’s (404)', async () => {
      const bobsAssistant = await newAssistant(suite.bob);
      const bobsStrategy = await newStrategy(suite.bob, '/bob');
      const mine = await newAssistant(suite.alice);
      await api
        .assign(suite.alice, {
          assistant_id: bobsAssistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        })
        .expect(404);
      await api
        .assign(suite.alice, {
          assistant_id: mine.assistant_id,
          inbound_context_strategy_id: bobsStrategy.strategy_id,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        })
        .expect(404);
      const created = await api
        .assign(suite.alice, {
          assistant_id: mine.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        })
        .expect(200);
      await api
        .updateMapping(suite.alice, created.body.data.inbound_id, {
          assistant_id: bobsAssistant.assistant_id,
        })
        .expect(404);
      await suite.ctx
        .http()
        .get(`/inbound/details/${created.body.data.inbound_id}`)
        .set(suite.bob.auth)
        .expect(404);
    });

    it('updates: replaces or detaches (null) the assistant and the strategy, renumbers', async () => {
      const { inboundId, strategy } = await setup(suite.alice, '/update-mapping');
      const other = await newAssistant(suite.alice);
      const replaced = await api
        .updateMapping(suite.alice, inboundId, { assistant_id: other.assistant_id })
        .expect(200);
      expect(replaced.body.data.assistant_id).toBe(other.assistant_id);
      expect(replaced.body.data.inbound_context_strategy_id).toBe(strategy.strategy_id);
      const detached = await api
        .updateMapping(suite.alice, inboundId, { inbound_context_strategy_id: null })
        .expect(200);
      expect(detached.body.data.inbound_context_strategy_id).toBeNull();
      const noAssistant = await api
        .updateMapping(suite.alice, inboundId, { assistant_id: null })
        .expect(200);
      expect(noAssistant.body.data.assistant_id).toBeNull();
      const phone = uniquePhone();
      const renumbered = await api
        .updateMapping(suite.alice, inboundId, { inbound_config: { phone_number: phone } })
        .expect(200);
      expect(renumbered.body.data.phone_number_normalized).toBe(digitsOf(phone));
    });

    it('lists the caller’s mappings newest first', async () => {
      const user = await suite.ctx.newUser();
      const assistant = await newAssistant(user);
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const r = await api.assign(user, {
          assistant_id: assistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: uniquePhone() },
        });
        ids.push(r.body.data.inbound_id as string);
      }
      const res = await suite.ctx.http().get('/inbound/list').set(user.auth).expect(200);
      expect(res.body.data.total).toBe(3);
      expect(res.body.data.items.map((m: { inbound_id: string }) => m.inbound_id)).toEqual(
        ids.reverse(),
      );
    });
  });
});
