import type { ToolEntity } from '../tool.entity';
import type { ToolFields } from '../tool.types';
import { applyToolDefaults, NO_SIDE_EFFECT } from './apply-tool-defaults.util';
import { mergeToolPatch } from './merge-tool-patch.util';
import { toToolDetails } from './to-tool-details.util';

const webhook: ToolFields = {
  tool_name: 'lookup',
  tool_description: 'Looks up.',
  tool_parameters: [{ name: 'id', type: 'string', required: true }],
  tool_execution_type: 'webhook',
  tool_execution_config: {
    url: 'https://a.example/hook',
    timeout: 5,
    headers: { Authorization: 'Bearer secret-1', 'X-Tenant': 'acme', 'X-Api-Key': 'k-2' },
  },
  ...NO_SIDE_EFFECT,
};

describe('applyToolDefaults', () => {
  it('fills required, timeout and headers', () => {
    expect(
      applyToolDefaults({
        tool_name: 't',
        tool_description: 'd',
        tool_parameters: [
          { name: 'a', type: 'string', enum: ['x'] },
          { name: 'b', type: 'number', required: false, description: 'B' },
        ],
        tool_execution_type: 'webhook',
        tool_execution_config: { url: 'https://a.example' },
      }),
    ).toStrictEqual({
      tool_name: 't',
      tool_description: 'd',
      tool_parameters: [
        { name: 'a', type: 'string', required: true, enum: ['x'] },
        { name: 'b', type: 'number', description: 'B', required: false },
      ],
      tool_execution_type: 'webhook',
      tool_execution_config: { url: 'https://a.example', timeout: 10, headers: {} },
      ...NO_SIDE_EFFECT,
    });
  });

  it('defaults tool_parameters to none and keeps a static value by reference', () => {
    const value = { a: [1, { b: true }] };
    const fields = applyToolDefaults({
      tool_name: 't',
      tool_description: 'd',
      tool_execution_type: 'static_return',
      tool_execution_config: { value },
    });
    expect(fields.tool_parameters).toEqual([]);
    expect(fields.tool_execution_config).toStrictEqual({ value });
  });

  it('is idempotent', () => {
    expect(applyToolDefaults(applyToolDefaults(webhook))).toStrictEqual(applyToolDefaults(webhook));
  });
});

describe('toToolDetails', () => {
  it('masks sensitive header values only', () => {
    const entity = {
      ...webhook,
      tool_id: 'id-1',
      user_id: 'u',
      created_at: new Date('2030-01-01T00:00:00.000Z'),
      updated_at: new Date('2030-01-02T00:00:00.000Z'),
    } satisfies ToolEntity;
    const details = toToolDetails(entity);
    expect(details.tool_execution_config).toStrictEqual({
      url: 'https://a.example/hook',
      timeout: 5,
      headers: { Authorization: '****', 'X-Tenant': 'acme', 'X-Api-Key': '****' },
    });
    expect(JSON.stringify(details)).not.toContain('secret-1');
    expect(details.created_at).toBe('2030-01-01T00:00:00.000Z');
  });
});

describe('mergeToolPatch', () => {
  it('keeps what the patch does not name', () => {
    expect(mergeToolPatch(webhook, {})).toStrictEqual({
      ...webhook,
      tool_execution_config: { ...webhook.tool_execution_config },
    });
  });

  it('replaces top-level fields, tool_parameters as a whole', () => {
    const merged = mergeToolPatch(webhook, { tool_description: 'New', tool_parameters: [] });
    expect(merged.tool_description).toBe('New');
    expect(merged.tool_parameters).toEqual([]);
    expect(merged.tool_name).toBe('lookup');
  });

  it('merges headers by name: null deletes, **** keeps, a value replaces, names case-insensitively', () => {
    const merged = mergeToolPatch(webhook, {
      tool_execution_config: {
        headers: { authorization: '****', 'X-Tenant': null, 'x-api-key': 'k-3', 'X-New': 'n' },
        timeout: 20,
      },
    });
    expect(merged.tool_execution_config).toStrictEqual({
      url: 'https://a.example/hook',
      timeout: 20,
      headers: { Authorization: 'Bearer secret-1', 'x-api-key': 'k-3', 'X-New': 'n' },
    });
  });

  it('removes a config key sent as null so its default applies again', () => {
    const merged = mergeToolPatch(webhook, { tool_execution_config: { timeout: null } });
    expect(merged.tool_execution_config).toStrictEqual({
      url: 'https://a.example/hook',
      headers:
        webhook.tool_execution_config &&
        (webhook.tool_execution_config as { headers: object }).headers,
    });
  });

  it('drops the stored config when the execution type changes', () => {
    expect(
      mergeToolPatch(webhook, {
        tool_execution_type: 'static_return',
        tool_execution_config: { value: [1] },
      }).tool_execution_config,
    ).toStrictEqual({ value: [1] });
    expect(
      mergeToolPatch(webhook, { tool_execution_type: 'static_return' }).tool_execution_config,
    ).toStrictEqual({});
  });

  it('keeps the stored config when the same type is sent again', () => {
    expect(
      mergeToolPatch(webhook, {
        tool_execution_type: 'webhook',
        tool_execution_config: { url: 'https://b.example' },
      }).tool_execution_config,
    ).toStrictEqual({ ...webhook.tool_execution_config, url: 'https://b.example' });
  });
});
