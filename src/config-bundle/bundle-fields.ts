import { FIELD_NAMES } from '../assistant/utils/merge-assistant-patch.util';
import type { BundleType } from './config-bundle.types';

/**
 * Where each field of a resource's view (what its details route returns) goes in a bundle. A view
 * field in none of these lists is not exported: `bundle-fields.spec` compares them with the
 * response and create DTOs, so a field added to a resource fails it until it is placed here.
 */
export interface BundleFields {
  /** The field that names the resource: the key of its entry (a mapping's number is in `inbound_config`). */
  key: string;
  /** Made by the server: left out. */
  server: readonly string[];
  /** Copied as they are (secret values in them masked as the reads mask them). */
  copied: readonly string[];
  /** Ids of other resources: written as their names, under another field. */
  byName: Readonly<Record<string, string>>;
}

const TIMESTAMPS = ['created_at', 'updated_at'] as const;

export const BUNDLE_FIELDS: Record<BundleType, BundleFields> = {
  tools: {
    key: 'tool_name',
    server: ['tool_id', ...TIMESTAMPS],
    copied: [
      'tool_description',
      'tool_parameters',
      'tool_execution_type',
      'tool_execution_config',
      'side_effect',
      'dedupe_key',
      'dedupe_window_seconds',
      'notify_cancel',
    ],
    byName: {},
  },
  strategies: {
    key: 'strategy_name',
    server: ['strategy_id', ...TIMESTAMPS],
    copied: ['strategy_type', 'strategy_config', 'is_active'],
    byName: {},
  },
  assistants: {
    key: 'assistant_name',
    server: ['assistant_id', ...TIMESTAMPS],
    // The assistant's own fields, as its update merges them.
    copied: FIELD_NAMES.filter((field) => field !== 'assistant_name'),
    byName: { tool_ids: 'tools' },
  },
  inbound: {
    key: 'inbound_config',
    server: ['inbound_id', 'phone_number_normalized', 'guardrail_state', ...TIMESTAMPS],
    // `policy` is copied with the assistant of each of its actions by name (POLICY_ACTION_FIELDS).
    copied: [
      'assistant_version',
      'assistant_variants',
      'environment',
      'guardrail',
      'service',
      'policy',
      'is_active',
    ],
    byName: { assistant_id: 'assistant', inbound_context_strategy_id: 'strategy' },
  },
};

/** The actions of a mapping's `policy` that may name an assistant. */
export const POLICY_ACTIONS_WITH_ASSISTANT = ['closed', 'overflow'] as const;

/** Fields of a policy action: the assistant's id is written as its name (`assistant`). */
export const POLICY_ACTION_FIELDS = {
  copied: ['action', 'assistant_version', 'message'],
  byName: { assistant_id: 'assistant' },
} as const;
