/**
 * How the call stack gets an inbound call's context before the assistant starts.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npx ts-node --transpile-only examples/lookup-client.ts \
 *     --inbound-number "+91 80 1234 5678" --caller "+919900011122" [--room room-123] [--wait-ms 3000]
 *
 * Needs the service (or a worker, `npm run start:worker`) consuming the same Redis with the same
 * QUEUE_PREFIX (default `bull`).
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import {
  InboundContextLookupClient,
  JobWaitTimeoutError,
  QueueUnavailableError,
} from '@voice-assistant-config/client';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'inbound-number': { type: 'string' },
      'inbound-id': { type: 'string' },
      caller: { type: 'string' },
      room: { type: 'string' },
      'wait-ms': { type: 'string', default: '3000' },
    },
  });
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) throw new Error('set REDIS_URL');

  const client = InboundContextLookupClient.fromRedisUrl(redisUrl, {
    prefix: process.env.QUEUE_PREFIX || undefined,
  });
  try {
    const result = await client.lookup(
      {
        room_name: values.room ?? `room-${randomUUID()}`,
        ...(values['inbound-id'] ? { inbound_id: values['inbound-id'] } : {}),
        ...(values['inbound-number'] ? { inbound_number: values['inbound-number'] } : {}),
        ...(values.caller ? { caller_number: values.caller } : {}),
      },
      { waitMs: Number(values['wait-ms']) },
    );
    // success: context fetched; error: webhook failed (prompt rendered without context); skipped: no strategy.
    // In every case `prompt` / `start_instruction` are ready to use.
    console.log(JSON.stringify(result, null, 2));
    if (result.error?.startsWith('mapping_not_found')) {
      console.error(
        'No active inbound mapping routes this number yet: create one with POST /inbound/assign, ' +
          'or run `ADMIN_API_KEY=… npm run seed:demo` for the demo number (+91 80 1234 5678).',
      );
    }
  } catch (error) {
    if (error instanceof JobWaitTimeoutError) {
      console.error(
        `no answer within ${error.waitMs} ms: start the call with the assistant's unrendered prompt`,
      );
    } else if (error instanceof QueueUnavailableError) {
      console.error(`queue unavailable (${error.message}): start the call without context`);
    } else {
      throw error;
    }
    process.exitCode = 1;
  } finally {
    await client.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
