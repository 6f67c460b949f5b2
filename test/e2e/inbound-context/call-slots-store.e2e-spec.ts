import { randomUUID } from 'node:crypto';
import { RedisCallSlots } from '../../../src/inbound-policy/redis-call-slots';
import { scriptCommandsFor, testRedis } from '../../utils/test-redis';

/** The Redis store of a number's concurrent-call slots (its cap's behaviour is in inbound-policy-caps). */
(testRedis ? describe : describe.skip)('RedisCallSlots (e2e, Redis)', () => {
  it('takes slots up to the cap, sending its script by SHA: its text at most once, also after Redis forgot it', async () => {
    const prefix = `vac-test-${randomUUID()}`;
    const slots = new RedisCallSlots(testRedis!, prefix);
    const inboundId = randomUUID();
    const taken: boolean[] = [];
    try {
      const sent = await scriptCommandsFor(`${prefix}:call-slots:{${inboundId}}`, async () => {
        for (const room of ['r1', 'r2', 'r3', 'r1'])
          taken.push(await slots.take({ inboundId, roomName: room, cap: 2, ttlSeconds: 60 }));
      });
      // The third room finds both slots held; the first room keeps the slot it has.
      expect(taken).toEqual([true, true, false, true]);
      expect(sent.filter((name) => name === 'eval').length).toBeLessThanOrEqual(1);
      expect(sent.filter((name) => name === 'evalsha').length).toBeGreaterThanOrEqual(3);
      expect(await slots.free('r1')).toBe(true);
    } finally {
      slots.onModuleDestroy();
    }
  });
});
