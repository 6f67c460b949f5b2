import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { JOB_CONTRACTS, jsonSchemaFiles } from './index';

const dir = join(__dirname, '..', '..', 'packages', 'client', 'schemas');
const uuid = '3f2b8a4e-2c1d-4f5e-9a8b-7c6d5e4f3a2b';

/** Job data each queue's shipped schema and runtime check must agree on. */
const samples: Record<string, unknown[]> = {
  'inbound-context-lookup': [
    { room_name: 'r', inbound_id: uuid },
    { room_name: 'r', inbound_number: '+91 80 1234 5678', caller_number: '+1555', deadline_at: 1 },
    { room_name: 'r' },
    { room_name: ' ', inbound_id: uuid },
    { room_name: 'r', inbound_id: 'nope' },
    { room_name: 'r', inbound_number: '1234' },
    { room_name: 'r', inbound_number: 12345 },
    { room_name: 'r', inbound_id: uuid, deadline_at: 0 },
    { room_name: 'x'.repeat(256), inbound_id: uuid },
    { inbound_id: uuid },
  ],
  'tool-call': [
    { tool_id: 't', assistant_id: 'a', room_name: 'r', arguments: { city: 'Pune' } },
    { tool_id: 't', assistant_id: 'a', room_name: 'r', arguments: '{"city":"Pune"}' },
    { tool_id: 't', assistant_id: 'a', room_name: 'r' },
    { tool_id: 't', assistant_id: 'a', room_name: 'r', assistant_version: 2 },
    { tool_id: 't', assistant_id: 'a', room_name: 'r', assistant_version: null },
    { tool_id: 't', assistant_id: 'a', room_name: 'r', assistant_version: 0 },
    { tool_id: 't', assistant_id: 'a', room_name: 'r', assistant_version: '2' },
    { tool_id: '', assistant_id: 'a', room_name: 'r' },
    { tool_id: 't', assistant_id: 5, room_name: 'r' },
    { tool_id: 't', room_name: 'r' },
  ],
  'end-call-webhook': [
    { assistant_id: 'a', room_name: 'r', payload: { duration: 3 } },
    { assistant_id: 'a', room_name: 'r', payload: null },
    { assistant_id: 'a', room_name: 'r', payload: {}, assistant_version: 1 },
    { assistant_id: 'a', room_name: 'r', payload: {}, assistant_version: 1.5 },
    { assistant_id: 'a', room_name: 'r' },
    { assistant_id: '\t', room_name: 'r', payload: {} },
    { assistant_id: 'a', room_name: ['r'], payload: {} },
  ],
  'call-ended': [
    { room_name: 'r' },
    { room_name: 'r', inbound_number: '+49 30 1234 5678' },
    { room_name: 'r', inbound_number: '1234' },
    { room_name: '' },
    { inbound_number: '+49 30 1234 5678' },
  ],
  'tool-call-cancel': [
    { room_name: 'r', tool_call_id: 'c' },
    { room_name: 'r', tool_call_id: 'c', reason: 'caller interrupted' },
    { room_name: 'r' },
    { tool_call_id: 'c' },
    { room_name: 'r', tool_call_id: ' ' },
    { room_name: 'r', tool_call_id: 'c', reason: 'x'.repeat(501) },
  ],
};

describe('packages/client/schemas/*.schema.json', () => {
  it('are the runtime schemas, one file per queue (regenerate with `npm run contracts`)', () => {
    const expected = jsonSchemaFiles();
    const shipped = readdirSync(dir).filter((name) => name.endsWith('.schema.json'));
    expect(shipped.sort()).toEqual(Object.keys(expected).sort());
    for (const [name, text] of Object.entries(expected)) {
      expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
    }
  });

  it.each(JOB_CONTRACTS.map((contract) => [contract.queue, contract] as const))(
    '%s: the $id names the queue and its contract version',
    (queue, contract) => {
      const document = JSON.parse(readFileSync(join(dir, `${queue}.schema.json`), 'utf8')) as {
        $id: string;
      };
      expect(document.$id).toBe(`urn:voice-assistant-config:queue:${queue}:v${contract.spec.version}`);
    },
  );

  it.each(JOB_CONTRACTS.map((contract) => [contract.queue, contract] as const))(
    '%s: a validator built from the shipped file accepts and refuses what the service does',
    (queue, contract) => {
      const document = JSON.parse(
        readFileSync(join(dir, `${queue}.schema.json`), 'utf8'),
      ) as object;
      const validate = new Ajv({ strict: false }).compile(document);
      const verdicts = samples[queue].map((data) => [validate(data), contract.parse(data).ok]);
      expect(verdicts.some(([, ok]) => ok)).toBe(true);
      expect(verdicts.some(([, ok]) => !ok)).toBe(true);
      for (const [fromFile, atRuntime] of verdicts) expect(fromFile).toBe(atRuntime);
    },
  );
});
