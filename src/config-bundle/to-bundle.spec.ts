import type { AssistantDetailsDto } from '../assistant/dto/assistant-response.dto';
import { AppException } from '../common/errors/app.exception';
import type { InboundResponseDto } from '../inbound-context/dto/inbound-response.dto';
import type { ToolDetailsDto } from '../tool/dto/tool-response.dto';
import { NO_SIDE_EFFECT } from '../tool/utils/apply-tool-defaults.util';
import { toBundle, type CallerConfig } from './to-bundle';

const at = '2026-01-01T00:00:00.000Z';
const tool = (id: string, name: string) =>
  ({
    tool_id: id,
    tool_name: name,
    tool_description: 'd',
    tool_parameters: [],
    tool_execution_type: 'static_return',
    tool_execution_config: { value: 1 },
    ...NO_SIDE_EFFECT,
    created_at: at,
    updated_at: at,
  }) as ToolDetailsDto;
const assistant = (id: string, name: string, toolIds: string[]) =>
  ({
    assistant_id: id,
    assistant_name: name,
    assistant_prompt: 'p',
    tool_ids: toolIds,
    created_at: at,
    updated_at: at,
  }) as unknown as AssistantDetailsDto;
const mapping = (id: string, phone: string, normalized: string, assistantId: string | null) =>
  ({
    inbound_id: id,
    assistant_id: assistantId,
    assistant_version: null,
    assistant_variants: null,
    inbound_context_strategy_id: null,
    service: 'exotel',
    inbound_config: { phone_number: phone },
    phone_number_normalized: normalized,
    is_active: false,
    created_at: at,
    updated_at: at,
  }) as InboundResponseDto;
const config = (over: Partial<CallerConfig>): CallerConfig => ({
  assistants: [],
  tools: [],
  strategies: [],
  inbound: [],
  secrets: [],
  ...over,
});

describe('toBundle', () => {
  it('keys by name, drops ids and timestamps, turns references into names', () => {
    const bundle = toBundle(
      config({
        tools: [tool('t2', 'b_tool'), tool('t1', 'a_tool')],
        assistants: [assistant('a1', 'Desk', ['t2', 't1'])],
        inbound: [mapping('m1', '+91 1', '911', 'a1'), mapping('m2', '+91 2', '912', null)],
        secrets: ['Z', 'A'].map((secret_name) => ({ secret_name, allowed_origins: null })),
      }),
    );
    expect(Object.keys(bundle.tools)).toEqual(['a_tool', 'b_tool']);
    expect(bundle.tools.a_tool).toEqual({
      tool_description: 'd',
      tool_parameters: [],
      tool_execution_type: 'static_return',
      tool_execution_config: { value: 1 },
      ...NO_SIDE_EFFECT,
    });
    expect(bundle.assistants.Desk).toEqual({ assistant_prompt: 'p', tools: ['b_tool', 'a_tool'] });
    expect(bundle.inbound['+91 1']).toMatchObject({ assistant: 'Desk', strategy: null });
    expect(bundle.inbound['+91 2']).toMatchObject({ assistant: null });
    expect(bundle.secrets).toEqual(['A', 'Z']);
  });

  it('refuses two resources of one type under one name, and two mappings of one number', () => {
    let error: unknown;
    try {
      toBundle(
        config({
          tools: [tool('t2', 'x'), tool('t1', 'x'), tool('t3', 'y')],
          inbound: [mapping('m1', '+91 1', '911', null), mapping('m2', '+911', '911', null)],
        }),
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).status).toBe(409);
    expect((error as AppException).data).toEqual({
      duplicates: [
        { resource_type: 'tools', name: 'x', ids: ['t1', 't2'] },
        { resource_type: 'inbound', name: '+91 1', ids: ['m1', 'm2'] },
      ],
    });
  });
});
