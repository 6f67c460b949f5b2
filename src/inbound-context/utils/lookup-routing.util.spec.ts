import type { AssistantEntity } from '../../assistant/assistant.entity';
import type { InboundMappingEntity } from '../inbound-mapping.entity';
import type { ResolvedMapping } from '../lookup.repository';
import { buildPayload, callVariables } from './lookup-payload.util';
import { mappingKey, routeLookup } from './route-lookup.util';

const mapping = {
  inbound_id: 'm-1',
  user_id: 'u-1',
  assistant_id: 'a-1',
  inbound_context_strategy_id: 's-1',
  phone_number_normalized: '918012345678',
} as InboundMappingEntity;
const assistant = { assistant_id: 'a-1', assistant_name: 'Support' } as AssistantEntity;
const found: ResolvedMapping = { mapping, assistant, version: 4, strategy: null, owner: null };

describe('mappingKey', () => {
  it('names a mapping by id, else by the normalized number', () => {
    expect(mappingKey({ room_name: 'r', inbound_id: 'm-1', inbound_number: '+1 555' })).toBe(
      'id:m-1',
    );
    expect(mappingKey({ room_name: 'r', inbound_number: '+1 (555) 0100' })).toBe('number:15550100');
  });
});

describe('routeLookup', () => {
  it('routes to the pinned assistant and strategy, with the result fields and call values', () => {
    const route = routeLookup(found, { room_name: 'room-1', caller_number: '+1555' });
    expect(route).toMatchObject({
      mapping,
      assistant,
      version: 4,
      variant: null,
      strategyId: 's-1',
      base: {
        assistant_id: 'a-1',
        assistant_name: 'Support',
        assistant_version: 4,
        variant: null,
        inbound_id: 'm-1',
        strategy_id: 's-1',
      },
      call: { room_name: 'room-1', caller_number: '+1555', inbound_id: 'm-1' },
    });
  });

  it("keeps the mapping's assistant id when its assistant is gone", () => {
    const route = routeLookup({ ...found, assistant: null }, { room_name: 'room-1' });
    expect(route.base).toMatchObject({ assistant_id: 'a-1', assistant_name: null });
  });
});

describe('buildPayload', () => {
  it("is the spec's webhook body; caller_number only when the job has one", () => {
    const strategy = { strategy_name: 'CRM', strategy_type: 'webhook' as const };
    expect(buildPayload({ room_name: 'r' }, mapping, assistant, strategy, 's-1')).toEqual({
      assistant_id: 'a-1',
      assistant_name: 'Support',
      room_name: 'r',
      strategy_id: 's-1',
      strategy_name: 'CRM',
      strategy_type: 'webhook',
      call_type: 'inbound',
      service: 'exotel',
      inbound_id: 'm-1',
      inbound_number: '918012345678',
    });
    expect(
      buildPayload({ room_name: 'r', caller_number: '+1' }, mapping, null, null, 's-1'),
    ).toMatchObject({
      assistant_id: 'a-1',
      assistant_name: '',
      strategy_name: '',
      caller_number: '+1',
    });
  });
});

describe('callVariables', () => {
  it('holds the values the payload carries', () => {
    expect(callVariables({ room_name: 'r' }, mapping)).toEqual({
      caller_number: null,
      inbound_number: '918012345678',
      room_name: 'r',
      inbound_id: 'm-1',
      call_type: 'inbound',
    });
  });
});
