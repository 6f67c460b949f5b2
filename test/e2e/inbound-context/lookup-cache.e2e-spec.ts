import { randomUUID } from 'node:crypto';
import { InboundContextLookupService } from '../../../src/lookup/inbound-context-lookup.service';
import { InboundMappingEntity } from '../../../src/inbound-context/inbound-mapping.entity';
import { assistantApi } from '../../api/assistant-api';
import { inboundApi } from '../../api/inbound-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { twoProcessesWithUser } from '../../utils/two-processes';
import { redisConfigured } from '../../utils/test-redis';

const redis = redisConfigured;
/** How soon a change made through one process must reach another process's lookups. */
const CROSS_PROCESS_BOUND_MS = 500;

/**
 * A lookup resolves the mapping, assistant, strategy and owner from the routing table (Redis), not
 * the database; a change made through any process must still reach every process's lookups.
 */
describe('inbound lookup read cache (e2e)', () => {
  const two = twoProcessesWithUser();

  const lookup = (inboundId: string) =>
    two.a.app
      .get(InboundContextLookupService)
      .run({ room_name: `room-${randomUUID()}`, inbound_id: inboundId });

  /** An assistant and a mapping to it without a strategy: a lookup answers `skipped` with no webhook. */
  async function setup(name: string): Promise<{ assistantId: string; inboundId: string }> {
    const { assistant_id: assistantId } = await assistantApi(two.a, two.user).create(
      assistantBody({
        assistant_name: name,
        assistant_prompt: 'Hello',
        assistant_tts_config: { voice_id: 'v', api_key: 'tts-key-0123456789' },
      }),
    );
    const { inbound_id: inboundId } = await inboundApi(two.a, two.user).assign(
      inboundBody(assistantId),
    );
    return { assistantId, inboundId };
  }

  it('reads the mapping, assistant, strategy and owner from the routing table, never the database', async () => {
    const { inboundId } = await setup('Cached');
    const reads = jest.spyOn(
      two.a.dataSource.getRepository(InboundMappingEntity),
      'createQueryBuilder',
    );
    try {
      for (let i = 0; i < 5; i++) {
        const result = await lookup(inboundId);
        expect(result).toMatchObject({ status: 'skipped', assistant_name: 'Cached' });
      }
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it('a change made through this process is seen by the next lookup', async () => {
    const { assistantId, inboundId } = await setup('Before');
    expect(await lookup(inboundId)).toMatchObject({ assistant_name: 'Before' });
    await two.a
      .http()
      .patch(`/assistant/update/${assistantId}`)
      .set(two.user.auth)
      .send({ assistant_name: 'After' })
      .expect(200);
    expect(await lookup(inboundId)).toMatchObject({ assistant_name: 'After' });
    await two.a.http().delete(`/inbound/delete/${inboundId}`).set(two.user.auth).expect(200);
    expect(await lookup(inboundId)).toMatchObject({ status: 'error', assistant_id: null });
  });

  (redis ? it : it.skip)(
    `a change made through another process reaches this one's lookups within ${CROSS_PROCESS_BOUND_MS} ms`,
    async () => {
      const { assistantId, inboundId } = await setup('Old name');
      const other = await setup('Other assistant');
      expect(await lookup(inboundId)).toMatchObject({ assistant_name: 'Old name' });
      const reads = jest.spyOn(
        two.a.dataSource.getRepository(InboundMappingEntity),
        'createQueryBuilder',
      );
      try {
        expect(await lookup(inboundId)).toMatchObject({ assistant_name: 'Old name' });
        expect(reads).not.toHaveBeenCalled(); // from the routing table
      } finally {
        reads.mockRestore();
      }

      const seenWithin = async (
        change: () => Promise<unknown>,
        expected: Record<string, unknown>,
      ) => {
        await change();
        const changedAt = Date.now();
        let result = await lookup(inboundId);
        while (Date.now() - changedAt < CROSS_PROCESS_BOUND_MS) {
          if (
            Object.entries(expected).every(
              ([k, v]) => (result as unknown as Record<string, unknown>)[k] === v,
            )
          )
            break;
          await new Promise((r) => setTimeout(r, 10));
          result = await lookup(inboundId);
        }
        expect(result).toMatchObject(expected);
      };

      await seenWithin(
        () =>
          two.b
            .http()
            .patch(`/assistant/update/${assistantId}`)
            .set(two.user.auth)
            .send({ assistant_name: 'New name' })
            .expect(200),
        { assistant_name: 'New name' },
      );
      await seenWithin(
        () =>
          two.b
            .http()
            .patch(`/inbound/update/${inboundId}`)
            .set(two.user.auth)
            .send({ assistant_id: other.assistantId })
            .expect(200),
        { assistant_name: 'Other assistant', assistant_id: other.assistantId },
      );
    },
  );
});
