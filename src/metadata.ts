/* eslint-disable */
export default async () => {
  const t = {
    ['./activity-log/dto/log-entry.dto']: await import('./activity-log/dto/log-entry.dto'),
    ['./assistant/dto/assistant-response.dto']:
      await import('./assistant/dto/assistant-response.dto'),
    ['./assistant/dto/interaction-config.dto']:
      await import('./assistant/dto/interaction-config.dto'),
    ['./assistant/dto/llm-config.dto']: await import('./assistant/dto/llm-config.dto'),
    ['./assistant/dto/render-assistant.dto']: await import('./assistant/dto/render-assistant.dto'),
    ['./assistant/dto/assistant-version.dto']:
      await import('./assistant/dto/assistant-version.dto'),
    ['./tool/dto/tool-parameter.dto']: await import('./tool/dto/tool-parameter.dto'),
    ['./tool/dto/tool-response.dto']: await import('./tool/dto/tool-response.dto'),
    ['./tool/dto/tool-execution-config.dto']: await import('./tool/dto/tool-execution-config.dto'),
    ['./assistant-runtime/assistant-runtime.dto']:
      await import('./assistant-runtime/assistant-runtime.dto'),
    ['./inbound-context/dto/test-strategy.dto']:
      await import('./inbound-context/dto/test-strategy.dto'),
    ['./inbound-context/dto/strategy-config.dto']:
      await import('./inbound-context/dto/strategy-config.dto'),
    ['./inbound-context/dto/strategy-response.dto']:
      await import('./inbound-context/dto/strategy-response.dto'),
    ['./inbound-context/dto/inbound-config.dto']:
      await import('./inbound-context/dto/inbound-config.dto'),
    ['./inbound-context/dto/inbound-response.dto']:
      await import('./inbound-context/dto/inbound-response.dto'),
    ['./inbound-context/dto/number-holding.dto']:
      await import('./inbound-context/dto/number-holding.dto'),
    ['./secret/dto/secret-response.dto']: await import('./secret/dto/secret-response.dto'),
    ['./auth/dto/auth-response.dto']: await import('./auth/dto/auth-response.dto'),
    ['./health/health.dto']: await import('./health/health.dto'),
  };
  return {
    '@nestjs/swagger': {
      models: [
        [
          import('./common/pagination/pagination-query.dto'),
          {
            PaginationQueryDto: {
              page: {
                required: true,
                type: () => Number,
                description: 'Page number, starting at 1.',
                default: 1,
                minimum: 1,
              },
              limit: {
                required: true,
                type: () => Number,
                description: 'Page size, at most 100.',
                minimum: 1,
              },
            },
          },
        ],
        [
          import('./activity-log/activity-log.entity'),
          {
            ActivityLogEntity: {
              id: {
                required: true,
                type: () => String,
                description:
                  'Auto-increment: cheap appends, and the tie-breaker that keeps pages stable.',
              },
              user_id: { required: true, type: () => String },
              log_type: {
                required: true,
                enum: ['tool_call', 'end_call_webhook', 'inbound_context_lookup'],
              },
              status: { required: true, enum: ['success', 'error'] },
              assistant_id: { required: true, type: () => String, nullable: true },
              room_name: { required: true, type: () => String },
              timestamp: { required: true, type: () => Date },
              message: { required: true, type: () => String },
              request_data: { required: true, type: 'object', additionalProperties: true },
              response_data: { required: true, type: 'object', additionalProperties: true },
              latency_ms: { required: true, type: () => Number },
              error_class: {
                required: true,
                nullable: true,
                description:
                  'Why the request failed (`timeout`, `auth`, ...: see error-class.ts); null on success.',
                enum: [
                  'config',
                  'timeout',
                  'network',
                  'http_4xx',
                  'auth',
                  'http_5xx',
                  'invalid_response',
                  'blocked',
                  'internal',
                ],
              },
              trace_id: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  'W3C trace id of the job that made the request (32 lowercase hex digits).',
              },
            },
          },
        ],
        [
          import('./activity-log/dto/log-entry.dto'),
          {
            LogEntryDto: {
              log_id: {
                required: true,
                type: () => String,
                description: 'Identifier of the entry (increasing with insertion order).',
              },
              log_type: {
                required: true,
                enum: ['tool_call', 'end_call_webhook', 'inbound_context_lookup'],
              },
              status: { required: true, enum: ['success', 'error'] },
              assistant_id: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  'Assistant the entry belongs to; null when the assistant could not be resolved.',
              },
              room_name: {
                required: true,
                type: () => String,
                description: 'Real-time room name of the call.',
              },
              timestamp: {
                required: true,
                type: () => String,
                description:
                  'When the request was made: UTC, ISO 8601 (`2025-01-31T09:30:00.123Z`).',
              },
              message: {
                required: true,
                type: () => String,
                description: 'Human-readable summary.',
              },
              request_data: {
                required: true,
                type: 'object',
                additionalProperties: true,
                description: 'Outbound request details; header values are never shown in clear.',
              },
              response_data: {
                required: true,
                type: 'object',
                additionalProperties: true,
                description: 'What came back (status code, truncated body, summary fields).',
              },
              latency_ms: {
                required: true,
                type: () => Number,
                description: 'Round-trip latency in milliseconds.',
              },
              error_class: {
                required: true,
                nullable: true,
                description:
                  'Why the request failed: `timeout`, `network`, `http_4xx`, `auth` (401/403), `http_5xx`,\n`invalid_response`, `blocked` (address refused), `config` (nothing to call or not allowed to),\n`internal`; null on success.',
                enum: [
                  'config',
                  'timeout',
                  'network',
                  'http_4xx',
                  'auth',
                  'http_5xx',
                  'invalid_response',
                  'blocked',
                  'internal',
                ],
              },
              trace_id: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  'W3C trace id the request was sent under (its `traceparent`); null for entries written before traces.',
              },
            },
            LogsPageDto: {
              logs: {
                required: true,
                type: () => [t['./activity-log/dto/log-entry.dto'].LogEntryDto],
                description: 'Entries, newest first.',
              },
              total: {
                required: true,
                type: () => Number,
                description: 'Entries matching the filters, across all pages.',
              },
              page: { required: true, type: () => Number },
              limit: { required: true, type: () => Number },
              next_cursor: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  'Pass as `cursor` to read the next (older) page; null on the last page. A walk by cursor never\nrepeats or skips an entry, even while new entries are written.',
              },
            },
            LogTimelineDto: {
              room_name: {
                required: true,
                type: () => String,
                description: 'Real-time room name of the call.',
              },
              assistant_id: {
                required: true,
                type: () => String,
                nullable: true,
                description: 'The assistant that answered the call, as its entries name it.',
              },
              assistant_version: {
                required: true,
                type: () => Number,
                nullable: true,
                description:
                  'The published version that ran (null: the working copy, or not recorded).',
              },
              entries: {
                required: true,
                type: () => [t['./activity-log/dto/log-entry.dto'].LogEntryDto],
                description:
                  'Every entry of the call (lookup, tool calls, end-call deliveries), oldest first, at most 1,000.',
              },
            },
            LatencyPercentilesDto: {
              p50: {
                required: true,
                type: () => Number,
                nullable: true,
                description: 'Median latency in ms; null without attempts.',
              },
              p95: {
                required: true,
                type: () => Number,
                nullable: true,
                description: '95th percentile latency in ms; null without attempts.',
              },
            },
            LogHealthTargetDto: {
              target: {
                required: true,
                type: () => String,
                description: 'Scheme, host and port of the URL (`https://crm.example.com`).',
              },
              log_types: {
                required: true,
                type: () => [Object],
                description: 'The kinds of request sent there.',
                enum: ['tool_call', 'end_call_webhook', 'inbound_context_lookup'],
                isArray: true,
              },
              attempts: {
                required: true,
                type: () => Number,
                description: 'Entries (requests, or refusals before one was sent) for this origin.',
              },
              errors: {
                required: true,
                type: () => Number,
                description: 'Entries with `status: "error"`.',
              },
              error_rate: {
                required: true,
                type: () => Number,
                description: '`errors / attempts`, 0-1.',
              },
              by_error_class: {
                required: true,
                type: () => Object,
                description: 'Errors per class; classes without errors are left out.',
              },
              latency_ms: {
                required: true,
                type: () => t['./activity-log/dto/log-entry.dto'].LatencyPercentilesDto,
              },
              last_success_at: {
                required: true,
                type: () => String,
                nullable: true,
                description: 'Latest success (ISO 8601, UTC); null when none in the range.',
              },
              last_error_at: {
                required: true,
                type: () => String,
                nullable: true,
                description: 'Latest error (ISO 8601, UTC); null when none in the range.',
              },
            },
            LogHealthDto: {
              from: {
                required: true,
                type: () => String,
                description: "Start of the range counted: the start of `from`'s UTC hour.",
              },
              to: {
                required: true,
                type: () => String,
                description: "End of the range counted: the end of `to`'s UTC hour.",
              },
              targets: {
                required: true,
                type: () => [t['./activity-log/dto/log-entry.dto'].LogHealthTargetDto],
                description:
                  'One item per origin, most errors first (then most attempts, then by name).',
              },
            },
          },
        ],
        [
          import('./activity-log/dto/logs-query.dto'),
          {
            LogsQueryDto: {
              log_type: {
                required: false,
                description: 'Only entries of this type.',
                enum: ['tool_call', 'end_call_webhook', 'inbound_context_lookup'],
              },
              assistant_id: {
                required: false,
                type: () => String,
                description: 'Only entries of this assistant.',
              },
              room_name: {
                required: false,
                type: () => String,
                description: 'Only entries of this real-time room.',
              },
              status: {
                required: false,
                description: 'Only entries with this outcome.',
                enum: ['success', 'error'],
              },
              error_class: {
                required: false,
                description:
                  'Only failed entries of this class (`timeout`, `auth`, ...; successes have none).',
                enum: [
                  'config',
                  'timeout',
                  'network',
                  'http_4xx',
                  'auth',
                  'http_5xx',
                  'invalid_response',
                  'blocked',
                  'internal',
                ],
              },
              trace_id: {
                required: false,
                type: () => String,
                description:
                  "Only entries of this W3C trace (the trace id of the job's `traceparent`: 32 lowercase hex digits).",
              },
              from: {
                required: false,
                type: () => String,
                description:
                  'Only entries at or after this instant (ISO 8601; a value without a zone is UTC).',
              },
              to: {
                required: false,
                type: () => String,
                description:
                  'Only entries at or before this instant (ISO 8601; a value without a zone is UTC).',
              },
              cursor: {
                required: false,
                type: () => String,
                description:
                  '`next_cursor` of the previous page: continue after it (then `page` is ignored).',
              },
            },
            LogTimelineParamsDto: {
              room_name: {
                required: true,
                type: () => String,
                description: 'Real-time room name of the call.',
              },
            },
            LogHealthQueryDto: {
              from: {
                required: false,
                type: () => String,
                description:
                  'Start of the range (ISO 8601; default 24 hours before `to`). Counted from the start of its hour.',
              },
              to: {
                required: false,
                type: () => String,
                description:
                  'End of the range (ISO 8601; default now). Counted to the end of its hour.',
              },
              log_type: {
                required: false,
                description: 'Only entries of this type.',
                enum: ['tool_call', 'end_call_webhook', 'inbound_context_lookup'],
              },
            },
          },
        ],
        [
          import('./activity-log/activity-log-target-count.entity'),
          {
            ActivityLogTargetCountEntity: {
              user_id: { required: true, type: () => String },
              hour: {
                required: true,
                type: () => String,
                description: "UTC hour of the entries' timestamp, `YYYY-MM-DDTHH`.",
              },
              origin: {
                required: true,
                type: () => String,
                description:
                  "Scheme, host and port of the request's URL (`https://crm.example.com`).",
              },
              log_type: {
                required: true,
                enum: ['tool_call', 'end_call_webhook', 'inbound_context_lookup'],
              },
              attempts: { required: true, type: () => String },
              errors: { required: true, type: () => String },
              e_timeout: {
                required: true,
                type: () => String,
                description:
                  'Errors per class, one column each (`e_<class>`), so a batch adds to them in one statement.',
              },
              e_network: { required: true, type: () => String },
              e_http_4xx: { required: true, type: () => String },
              e_auth: { required: true, type: () => String },
              e_http_5xx: { required: true, type: () => String },
              e_invalid_response: { required: true, type: () => String },
              e_blocked: { required: true, type: () => String },
              e_config: { required: true, type: () => String },
              e_internal: { required: true, type: () => String },
              l_0: {
                required: true,
                type: () => String,
                description:
                  'Latency histogram: entries per bucket of `LATENCY_BOUNDS_MS` (`l_0`: up to 25 ms), `l_13` above them all.',
              },
              l_1: { required: true, type: () => String },
              l_2: { required: true, type: () => String },
              l_3: { required: true, type: () => String },
              l_4: { required: true, type: () => String },
              l_5: { required: true, type: () => String },
              l_6: { required: true, type: () => String },
              l_7: { required: true, type: () => String },
              l_8: { required: true, type: () => String },
              l_9: { required: true, type: () => String },
              l_10: { required: true, type: () => String },
              l_11: { required: true, type: () => String },
              l_12: { required: true, type: () => String },
              l_13: { required: true, type: () => String },
              latency_max_ms: { required: true, type: () => Number },
              last_success_at: { required: true, type: () => Date, nullable: true },
              last_error_at: { required: true, type: () => Date, nullable: true },
            },
          },
        ],
        [
          import('./activity-log/activity-log-count.entity'),
          {
            ActivityLogCountEntity: {
              user_id: { required: true, type: () => String },
              day: {
                required: true,
                type: () => String,
                description: "UTC day of the entries' timestamp, `YYYY-MM-DD`.",
              },
              log_type: {
                required: true,
                enum: ['tool_call', 'end_call_webhook', 'inbound_context_lookup'],
              },
              status: { required: true, enum: ['success', 'error'] },
              assistant_id: {
                required: true,
                type: () => String,
                description:
                  "The entries' assistant, or '' for entries without one (a key column cannot be NULL).",
              },
              entries: { required: true, type: () => String },
            },
          },
        ],
        [
          import('./secret/secret.entity'),
          {
            SecretEntity: {
              secret_id: { required: true, type: () => String },
              secret_name: { required: true, type: () => String },
              value_encrypted: {
                required: true,
                type: () => String,
                description:
                  'The value, AES-256-GCM encrypted (`SecretCipher`); never in clear at rest.',
              },
              version: {
                required: true,
                type: () => Number,
                description: '1 at creation, + 1 at each rotation.',
              },
              last_used_at: {
                required: true,
                type: () => Date,
                nullable: true,
                description:
                  'When an outbound request or the runtime view last resolved it (to the minute); null until then.',
              },
            },
          },
        ],
        [
          import('./inbound-context/inbound-mapping.entity'),
          {
            InboundMappingEntity: {
              inbound_id: { required: true, type: () => String },
              assistant_id: {
                required: true,
                type: () => String,
                nullable: true,
                description: 'Null once the assistant is deleted (the mapping stays, detached).',
              },
              assistant_version: {
                required: true,
                type: () => Number,
                nullable: true,
                description:
                  'A published version of the assistant the lookup renders; null for the working copy.',
              },
              inbound_context_strategy_id: { required: true, type: () => String, nullable: true },
              service: { required: true, type: () => String },
              inbound_config: {
                required: true,
                type: 'object',
                additionalProperties: true,
                description: 'As sent: `{phone_number, ...}`.',
              },
              phone_number_normalized: {
                required: true,
                type: () => String,
                description: 'Digits only; what routing matches on.',
              },
              is_active: { required: true, type: () => Boolean },
              active_phone_number: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  'The normalized number while the mapping is active, NULL otherwise. Its unique index is what\nmakes "one active mapping per number" hold under concurrent assigns, on MySQL and SQLite alike.',
              },
            },
          },
        ],
        [
          import('./tool/assistant-tool.entity'),
          {
            AssistantToolEntity: {
              assistant_id: { required: true, type: () => String },
              tool_id: { required: true, type: () => String },
              created_at: { required: true, type: () => Date },
            },
          },
        ],
        [
          import('./tool/tool.entity'),
          {
            ToolEntity: {
              tool_id: { required: true, type: () => String },
              tool_name: { required: true, type: () => String },
              tool_description: { required: true, type: () => String },
              tool_parameters: {
                required: true,
                type: () => [Object],
                description:
                  'Parameter objects with defaults applied (`required: true` when not sent).',
              },
              tool_execution_type: { required: true, enum: ['webhook', 'static_return'] },
              tool_execution_config: {
                required: true,
                type: () => Object,
                description:
                  'webhook: `{url, timeout, headers}` (header values in clear, masked on read); static_return: `{value}`.',
              },
            },
          },
        ],
        [
          import('./assistant/dto/assistant-response.dto'),
          {
            AssistantCreatedDto: {
              assistant_id: {
                required: true,
                type: () => String,
                description: 'UUID of the created assistant.',
                example: '7d3f6c1e-2b6a-4c44-9f0e-5b8a1f7e2c10',
              },
              assistant_name: {
                required: true,
                type: () => String,
                description: 'The created name.',
              },
            },
            AssistantDeletedDto: {
              assistant_id: {
                required: true,
                type: () => String,
                description: 'UUID of the deleted assistant.',
              },
            },
            InteractionConfigResponseDto: {
              speaks_first: { required: true, type: () => Boolean },
              filler_words: {
                required: true,
                type: () => Boolean,
                description: 'Always false in realtime mode.',
              },
              silence_reprompts: { required: true, type: () => Boolean },
              silence_reprompt_interval: {
                required: true,
                type: () => Number,
                description: 'Seconds, 1.0-60.0.',
              },
              silence_max_reprompts: { required: true, type: () => Number, description: '0-5.' },
            },
            TtsConfigResponseDto: {
              voice_id: {
                required: false,
                type: () => String,
                description: 'cartesia, elevenlabs, mistral.',
              },
              speaker: { required: false, type: () => String, description: 'sarvam.' },
              target_language_code: {
                required: false,
                type: () => String,
                description: 'sarvam; BCP-47, default `bn-IN`.',
              },
              api_key: {
                required: false,
                type: () => String,
                description:
                  'Masked provider key (`****` or `****abcd`); absent when none is stored.',
                example: '****cdef',
              },
            },
            RealtimeLlmConfigResponseDto: {
              provider: { required: true, type: () => String },
              model: { required: true, type: () => String },
              voice: { required: true, type: () => String },
              api_key: {
                required: false,
                type: () => String,
                description:
                  'Masked provider key (`****` or `****abcd`); absent when none is stored.',
                example: '****cdef',
              },
            },
            AssistantCoreDto: {
              assistant_id: { required: true, type: () => String },
              assistant_name: { required: true, type: () => String },
              assistant_description: { required: true, type: () => String },
              assistant_prompt: { required: true, type: () => String },
              assistant_llm_mode: { required: true, type: () => String },
              assistant_start_instruction: { required: true, type: () => String, nullable: true },
              assistant_interaction_config: {
                required: true,
                type: () =>
                  t['./assistant/dto/assistant-response.dto'].InteractionConfigResponseDto,
                description: 'Defaults filled in; `filler_words` is false in realtime mode.',
              },
              assistant_end_call_enabled: { required: true, type: () => Boolean },
              assistant_end_call_trigger_phrase: {
                required: true,
                type: () => String,
                nullable: true,
              },
              assistant_end_call_agent_message: {
                required: true,
                type: () => String,
                nullable: true,
              },
              assistant_end_call_url: { required: true, type: () => String, nullable: true },
            },
            AssistantDetailsDto: {
              assistant_tts_model: { required: true, type: () => String, nullable: true },
              assistant_tts_config: {
                required: true,
                type: () => t['./assistant/dto/assistant-response.dto'].TtsConfigResponseDto,
                nullable: true,
                description:
                  "Stored TTS config (sarvam's `target_language_code` defaulted); `api_key` masked.",
              },
              assistant_llm_config: {
                required: true,
                type: () =>
                  t['./assistant/dto/assistant-response.dto'].RealtimeLlmConfigResponseDto,
                nullable: true,
                description: 'Null when none is stored (pipeline assistants usually).',
              },
              tool_ids: {
                required: true,
                type: () => [String],
                description: 'Ids of the tools attached to the assistant, oldest attachment first.',
              },
              created_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
              updated_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
            },
            AssistantListDto: {
              items: {
                required: true,
                type: () => [t['./assistant/dto/assistant-response.dto'].AssistantDetailsDto],
              },
              total: { required: true, type: () => Number },
              page: { required: true, type: () => Number },
              limit: { required: true, type: () => Number },
            },
          },
        ],
        [
          import('./assistant/assistant.entity'),
          {
            AssistantEntity: {
              assistant_id: { required: true, type: () => String },
              assistant_name: { required: true, type: () => String },
              assistant_description: { required: true, type: () => String },
              assistant_prompt: { required: true, type: () => String },
              assistant_llm_mode: { required: true, enum: ['pipeline', 'realtime'] },
              assistant_start_instruction: { required: true, type: () => String, nullable: true },
              assistant_interaction_config: {
                required: true,
                type: () =>
                  t['./assistant/dto/assistant-response.dto'].InteractionConfigResponseDto,
              },
              assistant_end_call_enabled: { required: true, type: () => Boolean },
              assistant_end_call_trigger_phrase: {
                required: true,
                type: () => String,
                nullable: true,
              },
              assistant_end_call_agent_message: {
                required: true,
                type: () => String,
                nullable: true,
              },
              assistant_end_call_url: { required: true, type: () => String, nullable: true },
              assistant_tts_model: {
                required: true,
                nullable: true,
                enum: ['cartesia', 'sarvam', 'elevenlabs', 'mistral'],
              },
              assistant_tts_config: { required: true, type: () => Object, nullable: true },
              assistant_llm_config: { required: true, type: () => Object, nullable: true },
            },
          },
        ],
        [
          import('./assistant/assistant-version.entity'),
          {
            AssistantVersionEntity: {
              version_id: { required: true, type: () => String },
              assistant_id: { required: true, type: () => String },
              user_id: { required: true, type: () => String },
              version: { required: true, type: () => Number },
              note: { required: true, type: () => String, nullable: true },
              assistant: { required: true, type: () => Object },
              tools: { required: true, type: () => [Object] },
              published_at: { required: true, type: () => Date },
            },
          },
        ],
        [
          import('./assistant/dto/interaction-config.dto'),
          {
            InteractionConfigDto: {
              speaks_first: {
                required: false,
                type: () => Boolean,
                description:
                  'When true the assistant speaks first (using `assistant_start_instruction`), in both modes.',
              },
              filler_words: {
                required: false,
                type: () => Boolean,
                description:
                  'Filler words while the user speaks; pipeline mode only (stored false in realtime mode).',
              },
              silence_reprompts: {
                required: false,
                type: () => Boolean,
                description: 'Reprompt the user during prolonged silence.',
              },
              silence_reprompt_interval: {
                required: false,
                type: () => Number,
                description: 'Seconds of silence before a reprompt, 1.0-60.0.',
              },
              silence_max_reprompts: {
                required: false,
                type: () => Number,
                description: 'Reprompts before the session ends, integer 0-5.',
              },
            },
          },
        ],
        [
          import('./assistant/dto/llm-config.dto'),
          {
            RealtimeLlmConfigDto: {
              provider: {
                required: false,
                type: () => String,
                description: 'Realtime provider; only `gemini` today.',
              },
              model: {
                required: false,
                type: () => String,
                description: "Realtime model; default is the provider's live preview model.",
              },
              voice: {
                required: false,
                type: () => String,
                description: 'Voice of the realtime model.',
              },
              api_key: {
                required: false,
                type: () => String,
                description:
                  'Per-assistant key of the realtime provider; when absent the system-level key is used.\nReturned masked; sending the masked value back on update keeps the stored key, `null` removes it.',
              },
            },
          },
        ],
        [
          import('./assistant/dto/tts-config.dto'),
          {
            ProviderKeyDto: {
              api_key: {
                required: false,
                type: () => String,
                description:
                  'Optional provider API key for this assistant. Returned masked (`****abcd`); sending the\nmasked value back on update keeps the stored key, `null` removes it.',
                example: 'sk_live_0123456789abcdef',
              },
            },
            VoiceIdTtsConfigDto: {
              voice_id: {
                required: true,
                type: () => String,
                description: 'Voice identifier at the provider.',
                example: 'a0e99841-438c-4a64-b679-ae501e7d6091',
              },
            },
            CartesiaTtsConfigDto: {},
            ElevenLabsTtsConfigDto: {},
            MistralTtsConfigDto: {},
            SarvamTtsConfigDto: {
              speaker: {
                required: true,
                type: () => String,
                description: 'Speaker identifier at the provider.',
                example: 'anushka',
              },
              target_language_code: {
                required: false,
                type: () => String,
                description: 'BCP-47 language code of the speech; default `bn-IN`.',
              },
            },
            AnyTtsConfigDto: {
              voice_id: { required: false, type: () => String },
              speaker: { required: false, type: () => String },
              target_language_code: { required: false, type: () => String },
            },
          },
        ],
        [
          import('./assistant/dto/create-assistant.dto'),
          {
            CreateAssistantDto: {
              assistant_name: {
                required: true,
                type: () => String,
                description: 'Display name, 1-100 characters.',
              },
              assistant_description: {
                required: true,
                type: () => String,
                description: 'What the assistant is for.',
              },
              assistant_prompt: {
                required: true,
                type: () => String,
                description:
                  'System prompt. May use `{{context.<key>}}` placeholders filled by an inbound context strategy.',
              },
              assistant_llm_mode: {
                required: false,
                type: () => String,
                description:
                  '`pipeline` (speech-to-text + LLM, separate TTS provider) or `realtime` (one realtime model).',
              },
              assistant_start_instruction: {
                required: false,
                type: () => String,
                description:
                  'Opening response text, used when `assistant_interaction_config.speaks_first` is true; max 200 characters.',
              },
              assistant_interaction_config: {
                required: false,
                type: () => t['./assistant/dto/interaction-config.dto'].InteractionConfigDto,
                description: 'Interaction settings; every missing key takes its default.',
              },
              assistant_end_call_enabled: {
                required: false,
                type: () => Boolean,
                description: 'Enables the built-in end-call tool.',
              },
              assistant_end_call_trigger_phrase: { required: false, type: () => String },
              assistant_end_call_agent_message: {
                required: false,
                type: () => String,
                description:
                  'What the agent says before hanging up; required when `assistant_end_call_enabled` is true.',
              },
              assistant_end_call_url: {
                required: false,
                type: () => String,
                description: 'http(s) URL that receives the call-ended payload.',
                example: 'https://example.com/hooks/call-ended',
              },
              assistant_tts_model: {
                required: false,
                type: () => String,
                description:
                  "Text-to-speech provider. Required in pipeline mode, and whenever `assistant_tts_config` is sent\n(the config's shape depends on it). Accepted but unused in realtime mode.",
              },
              assistant_tts_config: { required: false, type: () => Object },
              assistant_llm_config: {
                required: false,
                type: () => t['./assistant/dto/llm-config.dto'].RealtimeLlmConfigDto,
                description:
                  'Realtime model settings; required in realtime mode (`{}` takes every default). Accepted and stored\nin pipeline mode, where it is unused.',
              },
            },
          },
        ],
        [
          import('./common/validation/call-numbers.dto'),
          {
            CallNumbersDto: {
              caller_number: { required: false, type: () => String, example: '+919900011122' },
              inbound_number: {
                required: false,
                type: () => String,
                description: 'The dialled number as routed (digits).',
                example: '918012345678',
              },
            },
          },
        ],
        [
          import('./assistant/dto/render-assistant.dto'),
          {
            RenderCallDto: {
              room_name: { required: false, type: () => String, example: 'room-123' },
              inbound_id: {
                required: false,
                type: () => String,
                example: '0b7c4f7e-6c1e-4a57-9a55-1f1f0a3c9d11',
              },
              call_type: { required: false, type: () => String },
            },
            RenderAssistantDto: {
              context: {
                required: false,
                type: 'object',
                additionalProperties: true,
                description:
                  'Stands in for the context a lookup would return (at most 64 KB of JSON).',
              },
              call: {
                required: false,
                type: () => t['./assistant/dto/render-assistant.dto'].RenderCallDto,
              },
            },
            RenderedAssistantDto: {
              assistant_id: {
                required: true,
                type: () => String,
                example: '7d3f6c1e-2b6a-4c44-9f0e-5b8a1f7e2c10',
              },
              prompt: {
                required: true,
                type: () => String,
                description: '`assistant_prompt` rendered.',
                example: 'Hello Asha, your tier is gold. You are speaking to +919900011122.',
              },
              start_instruction: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  '`assistant_start_instruction` rendered; null when the assistant has none.',
              },
              missing: {
                required: true,
                type: () => [String],
                description:
                  'Placeholders nothing provided (no value, no default): they rendered as empty text.',
                example: ['context.last_order', 'call.room_name'],
              },
            },
          },
        ],
        [
          import('./assistant/dto/update-assistant.dto'),
          {
            UpdateAssistantDto: {
              assistant_interaction_config: {
                required: false,
                type: () => t['./assistant/dto/interaction-config.dto'].InteractionConfigDto,
                nullable: true,
                description:
                  'Merged key by key into the stored settings; a `null` key goes back to its default.',
              },
              assistant_tts_config: {
                required: false,
                type: () => Object,
                description:
                  "With the same `assistant_tts_model` (or none sent) the keys merge into the stored config;\nchanging `assistant_tts_model` requires the new provider's full config here. A masked\n`api_key` (`****...`) keeps the stored key; `null` removes it.",
              },
              assistant_llm_config: {
                required: false,
                type: () => t['./assistant/dto/llm-config.dto'].RealtimeLlmConfigDto,
                nullable: true,
                description:
                  'Merged key by key into the stored realtime config. A masked `api_key` keeps the stored key;\n`null` removes it.',
              },
            },
          },
        ],
        [
          import('./assistant/dto/assistant-version.dto'),
          {
            PublishAssistantDto: {
              note: {
                required: false,
                type: () => String,
                description:
                  'What changed, for the people who read the version list (at most 500 characters).',
                example: 'Shorter greeting; added the order lookup tool',
              },
            },
            AssistantVersionQueryDto: {
              version: { required: false, type: () => Number, minimum: 1 },
            },
            AssistantVersionDto: {
              assistant_id: {
                required: true,
                type: () => String,
                example: '7d3f6c1e-2b6a-4c44-9f0e-5b8a1f7e2c10',
              },
              version: {
                required: true,
                type: () => Number,
                description: 'Numbered from 1 per assistant.',
              },
              published_at: {
                required: true,
                type: () => String,
                example: '2026-11-23T17:30:00.000Z',
              },
              note: { required: true, type: () => String, nullable: true },
            },
            AssistantVersionListDto: {
              items: {
                required: true,
                type: () => [t['./assistant/dto/assistant-version.dto'].AssistantVersionDto],
              },
              total: { required: true, type: () => Number },
              page: { required: true, type: () => Number },
              limit: { required: true, type: () => Number },
            },
          },
        ],
        [
          import('./tool/dto/attach-tools.dto'),
          {
            AttachToolsDto: {
              tool_ids: {
                required: true,
                type: () => [String],
                description:
                  'Tools to attach or detach: a non-empty array of tool UUIDs; duplicates are ignored.',
                minItems: 1,
                format: 'uuid',
              },
            },
          },
        ],
        [
          import('./tool/dto/tool-execution-config.dto'),
          {
            WebhookExecutionConfigDto: {
              url: {
                required: true,
                type: () => String,
                description:
                  'http(s) URL that receives a POST with the arguments as its JSON body.',
              },
              timeout: {
                required: false,
                type: () => Number,
                description: "Seconds to wait for the webhook's answer: more than 0, at most 60.",
                minimum: 1,
              },
              headers: {
                required: false,
                type: 'object',
                additionalProperties: { type: 'string' },
                description:
                  'Additional HTTP headers sent on the call (at most 50). Sensitive values are returned as `****`.',
              },
            },
            StaticReturnExecutionConfigDto: {
              value: {
                required: true,
                type: () => Object,
                description:
                  'Any JSON value but null: string, number, boolean, object or array. Returned unchanged.',
              },
            },
            UnknownExecutionConfigDto: {
              url: { required: false, type: () => Object },
              timeout: { required: false, type: () => Object },
              headers: { required: false, type: () => Object },
              value: { required: false, type: () => Object },
            },
            ToolExecutionConfigPatchDto: {
              url: { required: false, type: () => Object },
              timeout: {
                required: false,
                type: () => Object,
                description:
                  'Replaces the timeout in seconds; `null` goes back to the default (10).',
              },
              headers: {
                required: false,
                type: 'object',
                additionalProperties: true,
                description:
                  'Merged key by key into the stored headers: a string sets, `null` deletes, `****` keeps the stored value.',
              },
              value: { required: false, type: () => Object },
            },
          },
        ],
        [
          import('./tool/dto/tool-parameter.dto'),
          {
            ToolParameterDto: {
              name: {
                required: true,
                type: () => String,
                description:
                  'Argument name: letters, digits and underscores, not starting with a digit; unique within the tool.',
              },
              type: {
                required: true,
                description: 'JSON type of the argument.',
                enum: ['string', 'number', 'boolean', 'object', 'array'],
              },
              description: {
                required: false,
                type: () => String,
                description: 'What the argument means, for the language model.',
              },
              required: {
                required: false,
                type: () => Boolean,
                description: 'Whether the model must always pass the argument.',
              },
              enum: {
                required: false,
                type: () => [String],
                description:
                  'Allowed values; only for `string` parameters, non-empty, strings only.',
                minItems: 1,
                uniqueItems: true,
              },
            },
          },
        ],
        [
          import('./tool/dto/create-tool.dto'),
          {
            CreateToolDto: {
              tool_name: {
                required: true,
                type: () => String,
                description:
                  'Function name the language model calls: snake_case (`^[a-z][a-z0-9_]*$`), at most 64 characters. `end_call` is reserved.',
              },
              tool_description: {
                required: true,
                type: () => String,
                description: 'Explains to the language model what the tool does; 1-500 characters.',
              },
              tool_parameters: {
                required: false,
                type: () => [t['./tool/dto/tool-parameter.dto'].ToolParameterDto],
                description: 'Arguments the model passes; default none.',
              },
              tool_execution_type: {
                required: true,
                description:
                  '`webhook` POSTs the arguments to a URL; `static_return` returns a fixed value.',
                enum: ['webhook', 'static_return'],
              },
              tool_execution_config: {
                required: true,
                type: () => Object,
                description: 'Shape depends on `tool_execution_type`.',
              },
            },
          },
        ],
        [
          import('./tool/dto/tool-response.dto'),
          {
            CreateToolResponseDto: {
              tool_id: {
                required: true,
                type: () => String,
                description: 'UUID of the created tool.',
              },
              tool_name: { required: true, type: () => String, description: 'The tool name.' },
            },
            ToolParameterResponseDto: {
              name: { required: true, type: () => String },
              type: { required: true, enum: ['string', 'number', 'boolean', 'object', 'array'] },
              description: { required: false, type: () => String },
              required: { required: true, type: () => Boolean },
              enum: { required: false, type: () => [String] },
            },
            WebhookExecutionConfigResponseDto: {
              url: { required: true, type: () => String },
              timeout: {
                required: true,
                type: () => Number,
                description: 'Seconds; 10 when not set.',
              },
              headers: { required: true, type: 'object', additionalProperties: { type: 'string' } },
            },
            ToolDetailsDto: {
              tool_id: { required: true, type: () => String },
              tool_name: { required: true, type: () => String },
              tool_description: { required: true, type: () => String },
              tool_parameters: {
                required: true,
                type: () => [t['./tool/dto/tool-response.dto'].ToolParameterResponseDto],
              },
              tool_execution_type: { required: true, enum: ['webhook', 'static_return'] },
              tool_execution_config: { required: true, type: () => Object },
              created_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
              updated_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
            },
            ToolListDto: {
              items: {
                required: true,
                type: () => [t['./tool/dto/tool-response.dto'].ToolDetailsDto],
              },
              total: {
                required: true,
                type: () => Number,
                description: 'Number of tools the caller has.',
              },
              page: { required: true, type: () => Number },
              limit: { required: true, type: () => Number },
            },
            DeleteToolResponseDto: {
              tool_id: { required: true, type: () => String },
              detached_assistant_ids: {
                required: true,
                type: () => [String],
                description: 'Assistants the tool was detached from.',
              },
            },
            AssistantToolsDto: {
              assistant_id: { required: true, type: () => String },
              tool_ids: {
                required: true,
                type: () => [String],
                description:
                  'All tool ids attached to the assistant after the operation, oldest attachment first.',
              },
            },
          },
        ],
        [
          import('./tool/dto/update-tool.dto'),
          {
            UpdateToolDto: {
              tool_execution_config: {
                required: false,
                type: () => t['./tool/dto/tool-execution-config.dto'].ToolExecutionConfigPatchDto,
                description:
                  'Keys to change; for a webhook tool `headers` is merged key by key (`null` deletes, `****` keeps).',
              },
            },
          },
        ],
        [
          import('./assistant-runtime/assistant-runtime.dto'),
          {
            FunctionParameterSchemaDto: {
              type: { required: true, type: () => String },
              description: { required: false, type: () => String },
              enum: {
                required: false,
                type: () => [String],
                description: 'Allowed values (string parameters only).',
              },
              items: {
                required: false,
                type: 'object',
                additionalProperties: true,
                description: '`{}` on array parameters: items of any type.',
              },
            },
            FunctionParametersDto: {
              type: { required: true, type: () => String },
              properties: { required: true, type: 'object', additionalProperties: true },
              required: {
                required: true,
                type: () => [String],
                description: 'Names of the required arguments.',
              },
            },
            FunctionDto: {
              name: {
                required: true,
                type: () => String,
                description: 'The tool name (or `end_call` for the built-in end-call function).',
              },
              description: { required: true, type: () => String },
              parameters: {
                required: true,
                type: () => t['./assistant-runtime/assistant-runtime.dto'].FunctionParametersDto,
              },
            },
            FunctionDefinitionDto: {
              type: { required: true, type: () => String },
              function: {
                required: true,
                type: () => t['./assistant-runtime/assistant-runtime.dto'].FunctionDto,
              },
            },
            ToolBindingDto: {
              name: {
                required: true,
                type: () => String,
                description: 'Function name, as in `tools[].function.name`.',
              },
              tool_id: { required: true, type: () => String },
              tool_execution_type: { required: true, type: () => String },
            },
            RuntimeLlmConfigDto: {
              provider: { required: true, type: () => String },
              model: { required: true, type: () => String },
              voice: { required: true, type: () => String },
              api_key: {
                required: false,
                type: () => String,
                description:
                  "The assistant's own provider key, in clear; absent when the system-level key of the provider applies.",
              },
            },
            AssistantRuntimeDto: {
              assistant_tts_model: {
                required: true,
                type: () => String,
                nullable: true,
                description: 'Null in realtime mode: the realtime model speaks itself.',
              },
              assistant_tts_config: {
                required: true,
                type: 'object',
                additionalProperties: { type: 'string' },
                nullable: true,
                description:
                  "The provider's config with its `api_key` in clear; null in realtime mode.",
              },
              assistant_llm_config: {
                required: true,
                type: () => t['./assistant-runtime/assistant-runtime.dto'].RuntimeLlmConfigDto,
                description:
                  'The realtime model (speech-to-text and the language model step in pipeline mode, everything in realtime mode).',
              },
              tools: {
                required: true,
                type: () => [t['./assistant-runtime/assistant-runtime.dto'].FunctionDefinitionDto],
                description:
                  'Attached tools, oldest attachment first, then the built-in `end_call` when enabled.',
              },
              tool_bindings: {
                required: true,
                type: () => [t['./assistant-runtime/assistant-runtime.dto'].ToolBindingDto],
                description:
                  'Function name \u2192 tool id for the attached tools (not for `end_call`), same order as `tools`.',
              },
              updated_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
            },
          },
        ],
        [
          import('./auth/api-key.entity'),
          {
            ApiKeyEntity: {
              api_key_id: { required: true, type: () => String },
              user_id: { required: true, type: () => String },
              key_hash: {
                required: true,
                type: () => String,
                description:
                  'SHA-256 of the key, hex. The key itself is shown once at creation and never stored.',
              },
              key_prefix: {
                required: true,
                type: () => String,
                description:
                  'First characters of the key (`vac_AbCd`), so an operator can tell keys apart.',
              },
              scopes: {
                required: true,
                type: () => String,
                description:
                  'Comma-separated scopes in a fixed order (`config`, `config,runtime`, `runtime`).',
              },
              revoked_at: { required: true, type: () => Date, nullable: true },
              created_at: { required: true, type: () => Date },
            },
          },
        ],
        [
          import('./auth/dto/auth-response.dto'),
          {
            CreatedKeyDto: {
              api_key: {
                required: true,
                type: () => String,
                description: 'The API key. Shown once: only its hash is stored.',
              },
              api_key_id: { required: true, type: () => String },
              key_prefix: {
                required: true,
                type: () => String,
                description: '`vac_` plus four characters, to tell keys apart later.',
              },
              user_id: { required: true, type: () => String },
              scopes: {
                required: true,
                type: () => [Object],
                description:
                  'What the key may do: `config` (management routes), `runtime` (`GET /assistant/runtime/:id`).',
                enum: ['config', 'runtime'],
                isArray: true,
              },
            },
            AuthUserDto: {
              user_id: { required: true, type: () => String },
              user_name: { required: true, type: () => String },
              user_email: { required: true, type: () => String },
              org_name: { required: true, type: () => String, nullable: true },
              api_key_id: {
                required: true,
                type: () => String,
                description: 'The key this request authenticated with.',
              },
              scopes: {
                required: true,
                type: () => [Object],
                description:
                  'What the key may do: `config` (management routes), `runtime` (`GET /assistant/runtime/:id`).',
                enum: ['config', 'runtime'],
                isArray: true,
              },
            },
            ApiKeyInfoDto: {
              api_key_id: { required: true, type: () => String },
              key_prefix: { required: true, type: () => String },
              created_at: { required: true, type: () => String },
              revoked_at: { required: true, type: () => String, nullable: true },
              scopes: {
                required: true,
                type: () => [Object],
                description:
                  'What the key may do: `config` (management routes), `runtime` (`GET /assistant/runtime/:id`).',
                enum: ['config', 'runtime'],
                isArray: true,
              },
            },
            WebhookSecretDto: {
              secret: {
                required: true,
                type: () => String,
                description:
                  'Standard Webhooks signing secret (`whsec_...`): verify `webhook-signature` with it.',
              },
              previous_secret_expires_at: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  "During a rotation's grace period, the previous secret still signs; until then both signatures are sent.",
              },
            },
          },
        ],
        [
          import('./auth/dto/create-key.dto'),
          {
            CreateKeyDto: {
              user_name: {
                required: true,
                type: () => String,
                description: "Display name of the key's user.",
              },
              user_email: {
                required: true,
                type: () => String,
                description: 'A second key for an existing email is a new key for that same user.',
                format: 'email',
              },
              org_name: { required: false, type: () => String },
              scopes: {
                required: false,
                type: () => [Object],
                description:
                  'What the key may do: `config` (every management route) and/or `runtime`\n(`GET /assistant/runtime/:id`, provider keys in clear; for the call stack). Default `["config"]`.',
                enum: ['config', 'runtime'],
                isArray: true,
                minItems: 1,
                uniqueItems: true,
              },
            },
          },
        ],
        [
          import('./auth/user.entity'),
          {
            UserEntity: {
              user_id: { required: true, type: () => String },
              user_name: { required: true, type: () => String },
              user_email: {
                required: true,
                type: () => String,
                description: 'Lower-cased; one user per email.',
              },
              org_name: { required: true, type: () => String, nullable: true },
              webhook_secret: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  'Standard Webhooks signing secret (`whsec_...`); needed in clear to sign, never returned by reads other than its own route.',
              },
              webhook_secret_previous: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  'The secret before the last rotation, still used to sign until `webhook_secret_previous_expires_at`.',
              },
              webhook_secret_previous_expires_at: {
                required: true,
                type: () => Date,
                nullable: true,
              },
            },
          },
        ],
        [
          import('./idempotency/idempotency-key.entity'),
          {
            IdempotencyKeyEntity: {
              owner_id: {
                required: true,
                type: () => String,
                description: "The caller's user id, or `operator` for the operator's routes.",
              },
              idempotency_key: { required: true, type: () => String },
              fingerprint: {
                required: true,
                type: () => String,
                description: 'SHA-256 (hex) of the method, path and body of the first request.',
              },
              state: { required: true, enum: ['done', 'running'] },
              response_status: { required: true, type: () => Number, nullable: true },
              response_body: {
                required: true,
                type: () => String,
                nullable: true,
                description: 'The response body as sent (the envelope), JSON text.',
              },
              created_at: { required: true, type: () => Date },
              expires_at: { required: true, type: () => Date },
            },
          },
        ],
        [
          import('./inbound-context/inbound-context-strategy.entity'),
          {
            InboundContextStrategyEntity: {
              strategy_id: { required: true, type: () => String },
              strategy_name: { required: true, type: () => String },
              strategy_type: { required: true, type: () => String },
              strategy_config: {
                required: true,
                type: () => Object,
                description:
                  '`{url, headers, timeout_seconds, fallback_context?}`; header values in clear here, masked on every read.',
              },
              is_active: { required: true, type: () => Boolean },
            },
          },
        ],
        [
          import('./inbound-context/phone-number-holder.entity'),
          {
            PhoneNumberHolderEntity: {
              phone_number_normalized: {
                required: true,
                type: () => String,
                description: 'Digits only, as inbound mappings route on them.',
              },
              user_id: { required: true, type: () => String },
              created_at: { required: true, type: () => Date },
            },
          },
        ],
        [
          import('./health/health.dto'),
          {
            HealthDto: {
              status: {
                required: true,
                description:
                  '`ok`, `degraded` (Redis down: CRUD works, jobs do not) or `error` (database down).',
                enum: ['error', 'ok', 'degraded'],
              },
              details: {
                required: true,
                type: 'object',
                additionalProperties: true,
                description:
                  "Per dependency: `{status: 'up'|'down', ...}`; `redis.mode` is `embedded` without Redis.",
              },
            },
            LivenessDto: {
              status: {
                required: true,
                type: () => String,
                description: 'Always `ok`: the process answers.',
              },
            },
          },
        ],
        [
          import('./inbound-context/dto/test-strategy.dto'),
          {
            TestStrategyDto: {
              assistant_id: {
                required: false,
                type: () => String,
                description:
                  'Assistant whose prompt is previewed; default the assistant of a mapping that uses this strategy. Must be yours.',
              },
            },
            TestStrategyRequestDto: {
              url: { required: true, type: () => String },
              headers: {
                required: true,
                type: 'object',
                additionalProperties: { type: 'string' },
                description: 'Header names sent; values hidden.',
              },
              payload: {
                required: true,
                type: 'object',
                additionalProperties: true,
                description: 'The exact body sent (with `dry_run: true`).',
              },
            },
            TestStrategyResultDto: {
              status: { required: true, enum: ['success', 'error'] },
              error: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  '`<kind>: <detail>` on error (timeout, http_error, invalid_json, invalid_response, ...).',
              },
              error_class: {
                required: true,
                nullable: true,
                description:
                  'The class of `error` (`timeout`, `auth`, `http_5xx`, `invalid_response`, ...); null on success.',
                enum: [
                  'config',
                  'timeout',
                  'network',
                  'http_4xx',
                  'auth',
                  'http_5xx',
                  'invalid_response',
                  'blocked',
                  'internal',
                ],
              },
              status_code: {
                required: true,
                type: () => Number,
                nullable: true,
                description: 'HTTP status the webhook answered, when it answered.',
              },
              latency_ms: { required: true, type: () => Number },
              context_keys: {
                required: true,
                type: () => [String],
                description: 'Sorted keys of the returned `context`.',
              },
              context: {
                required: true,
                type: 'object',
                additionalProperties: true,
                nullable: true,
                description: 'The returned `context` (your own data, shown only to you).',
              },
              fallback_used: {
                required: true,
                type: () => Boolean,
                description:
                  "True when the call failed and the previews were rendered with the strategy's `fallback_context`.",
              },
              assistant_id: { required: true, type: () => String, nullable: true },
              prompt_preview: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  "The assistant's prompt rendered with this context; null without an assistant.",
              },
              start_instruction_preview: { required: true, type: () => String, nullable: true },
              secrets_used: {
                required: true,
                type: () => [String],
                description:
                  "Names of the secrets the request's URL and headers reference (`{{secret.NAME}}`); never their values.",
              },
              request: {
                required: true,
                type: () => t['./inbound-context/dto/test-strategy.dto'].TestStrategyRequestDto,
              },
            },
          },
        ],
        [
          import('./inbound-context/dto/strategy-config.dto'),
          {
            StrategyConfigDto: {
              url: {
                required: true,
                type: () => String,
                description:
                  'The webhook the service POSTs the call details to (http or https, at most 500 characters).',
              },
              headers: {
                required: false,
                type: 'object',
                additionalProperties: { type: 'string' },
                description:
                  'Custom headers sent with every lookup. Sensitive values are returned as `****`.',
              },
              timeout_seconds: {
                required: false,
                type: () => Number,
                description:
                  'Total time allowed for the webhook call, in seconds (0.5-10, default 2).',
              },
              fallback_context: {
                required: false,
                type: 'object',
                additionalProperties: true,
                nullable: true,
                description:
                  "Rendered into the prompt and start instruction in place of the webhook's `context` when a\nlookup fails (timeout, HTTP error, invalid answer, inactive strategy, missing URL, expired).\nA JSON object of at most 16 KB; on an update `null` removes it.",
              },
            },
            UpdateStrategyConfigDto: {
              headers: {
                required: false,
                type: 'object',
                additionalProperties: true,
                description:
                  'Merged into the stored headers: a value replaces, `null` deletes the header, `****` keeps the stored value.',
              },
            },
          },
        ],
        [
          import('./inbound-context/dto/create-strategy.dto'),
          {
            CreateStrategyDto: {
              strategy_name: {
                required: true,
                type: () => String,
                description: 'Display name, 1-100 characters.',
              },
              strategy_type: {
                required: true,
                type: () => String,
                description: 'Always `webhook`.',
              },
              strategy_config: {
                required: true,
                type: () => t['./inbound-context/dto/strategy-config.dto'].StrategyConfigDto,
              },
              is_active: {
                required: false,
                type: () => Boolean,
                description:
                  'An inactive strategy is not called at lookup; the lookup is logged as an error. Default true.',
              },
            },
          },
        ],
        [
          import('./inbound-context/dto/strategy-response.dto'),
          {
            StrategyConfigResponseDto: {
              url: { required: true, type: () => String },
              headers: {
                required: true,
                type: 'object',
                additionalProperties: { type: 'string' },
                description:
                  'Sensitive values (authorization, token, secret, api-key, password, cookie, key...) shown as `****`.',
              },
              timeout_seconds: { required: true, type: () => Number, description: 'Seconds.' },
              fallback_context: {
                required: false,
                type: 'object',
                additionalProperties: true,
                description: 'Present when set: what a failed lookup renders with.',
              },
            },
            StrategyResponseDto: {
              strategy_id: { required: true, type: () => String },
              strategy_name: { required: true, type: () => String },
              strategy_type: { required: true, type: () => String },
              strategy_config: {
                required: true,
                type: () =>
                  t['./inbound-context/dto/strategy-response.dto'].StrategyConfigResponseDto,
              },
              is_active: { required: true, type: () => Boolean },
              created_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
              updated_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
            },
            StrategyListDto: {
              items: {
                required: true,
                type: () => [t['./inbound-context/dto/strategy-response.dto'].StrategyResponseDto],
              },
              total: { required: true, type: () => Number },
              page: { required: true, type: () => Number },
              limit: { required: true, type: () => Number },
            },
            StrategyDeletedDto: {
              strategy_id: { required: true, type: () => String },
              detached_mappings: {
                required: true,
                type: () => Number,
                description: 'Inbound mappings that used this strategy and now have none.',
              },
            },
          },
        ],
        [
          import('./inbound-context/dto/update-strategy.dto'),
          {
            UpdateStrategyDto: {
              strategy_config: {
                required: false,
                type: () => t['./inbound-context/dto/strategy-config.dto'].UpdateStrategyConfigDto,
              },
            },
          },
        ],
        [
          import('./inbound-context/dto/inbound-config.dto'),
          {
            InboundConfigDto: {
              phone_number: {
                required: true,
                type: () => String,
                description:
                  'The dialled number, any formatting (`+91 80 1234 5678`); routing matches on its digits.',
              },
            },
          },
        ],
        [
          import('./inbound-context/dto/assign-inbound.dto'),
          {
            AssignInboundDto: {
              assistant_id: {
                required: true,
                type: () => String,
                description: 'The assistant that answers calls to this number; must be yours.',
              },
              assistant_version: {
                required: false,
                type: () => Number,
                nullable: true,
                description:
                  'A published version of the assistant (`POST /assistant/publish/:assistant_id`) that lookups\nrender; null or absent: the working copy (on an update, a new `assistant_id` without it resets\nthe pin). Must exist (404 otherwise).',
                minimum: 1,
              },
              inbound_context_strategy_id: {
                required: false,
                type: () => String,
                nullable: true,
                description:
                  'Strategy run before the call starts to fetch caller context; must be yours. `null` detaches it.',
              },
              service: {
                required: true,
                type: () => String,
                description: 'The inbound telephony provider; currently `exotel`.',
              },
              inbound_config: {
                required: true,
                type: () => t['./inbound-context/dto/inbound-config.dto'].InboundConfigDto,
              },
              is_active: {
                required: false,
                type: () => Boolean,
                description:
                  'Only an active mapping routes calls; one active mapping per number. Default true.',
              },
            },
            UpdateInboundDto: {
              assistant_id: {
                required: false,
                type: () => String,
                description:
                  'The assistant that answers calls to this number (must be yours); `null` detaches it.',
              },
            },
          },
        ],
        [
          import('./inbound-context/dto/inbound-response.dto'),
          {
            InboundConfigResponseDto: {
              phone_number: { required: true, type: () => String, description: 'As sent.' },
            },
            InboundResponseDto: {
              inbound_id: { required: true, type: () => String },
              assistant_id: { required: true, type: () => String, nullable: true },
              assistant_version: {
                required: true,
                type: () => Number,
                nullable: true,
                description:
                  'The published version of the assistant that lookups render; null for the working copy.',
              },
              inbound_context_strategy_id: { required: true, type: () => String, nullable: true },
              service: { required: true, type: () => String },
              inbound_config: {
                required: true,
                type: () =>
                  t['./inbound-context/dto/inbound-response.dto'].InboundConfigResponseDto,
              },
              phone_number_normalized: {
                required: true,
                type: () => String,
                description: 'Digits only; what routing matches on.',
              },
              is_active: { required: true, type: () => Boolean },
              created_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
              updated_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
            },
            InboundListDto: {
              items: {
                required: true,
                type: () => [t['./inbound-context/dto/inbound-response.dto'].InboundResponseDto],
              },
              total: { required: true, type: () => Number },
              page: { required: true, type: () => Number },
              limit: { required: true, type: () => Number },
            },
            InboundDeletedDto: { inbound_id: { required: true, type: () => String } },
          },
        ],
        [
          import('./inbound-context/dto/number-holding.dto'),
          {
            NumberMappingDto: {
              inbound_id: { required: true, type: () => String },
              user_id: {
                required: true,
                type: () => String,
                description: 'The user who made the mapping.',
              },
              assistant_id: { required: true, type: () => String, nullable: true },
              is_active: { required: true, type: () => Boolean },
              created_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
            },
            NumberHoldingDto: {
              phone_number_normalized: {
                required: true,
                type: () => String,
                example: '918012345678',
              },
              user_id: {
                required: true,
                type: () => String,
                nullable: true,
                description: 'The user the number belongs to; null when no one holds it.',
              },
              held_since: {
                required: true,
                type: () => String,
                nullable: true,
                description: 'When the holder first assigned it (ISO 8601, UTC).',
              },
              mappings: {
                required: true,
                type: () => [t['./inbound-context/dto/number-holding.dto'].NumberMappingDto],
                description: 'Every mapping of the number, oldest first.',
              },
            },
          },
        ],
        [
          import('./secret/dto/secret-response.dto'),
          {
            SecretUseDto: {
              resource_type: {
                required: true,
                enum: ['assistant_version', 'assistant', 'tool', 'inbound_context_strategy'],
              },
              resource_id: { required: true, type: () => String },
              field: {
                required: true,
                type: () => String,
                description:
                  'Full path of the field, e.g. `tool_execution_config.headers.Authorization`.',
              },
            },
            SecretDetailsDto: {
              secret_name: { required: true, type: () => String },
              version: {
                required: true,
                type: () => Number,
                description: '1 at creation, + 1 at each rotation.',
              },
              created_at: { required: true, type: () => String, description: 'ISO 8601, UTC.' },
              updated_at: {
                required: true,
                type: () => String,
                description: 'ISO 8601, UTC: the last rotation.',
              },
              last_used_at: {
                required: true,
                type: () => String,
                nullable: true,
                description:
                  'When a request or the runtime view last resolved it (to the minute); null until then.',
              },
              used_by: {
                required: true,
                type: () => [t['./secret/dto/secret-response.dto'].SecretUseDto],
                description:
                  'Every field of your tools, strategies and assistants that references it.',
              },
            },
            SecretListDto: {
              items: {
                required: true,
                type: () => [t['./secret/dto/secret-response.dto'].SecretDetailsDto],
              },
              total: { required: true, type: () => Number },
              page: { required: true, type: () => Number },
              limit: { required: true, type: () => Number },
            },
            SecretDeletedDto: { secret_name: { required: true, type: () => String } },
          },
        ],
        [
          import('./secret/dto/create-secret.dto'),
          {
            CreateSecretDto: {
              secret_name: {
                required: true,
                type: () => String,
                description:
                  'Upper-case letters, digits and `_`, starting with a letter (at most 64); unique among your secrets.',
              },
              value: {
                required: true,
                type: () => String,
                description:
                  '1-8192 characters, no control characters. Write-only: no route ever returns it.',
              },
            },
          },
        ],
        [
          import('./secret/dto/update-secret.dto'),
          {
            UpdateSecretDto: {
              value: {
                required: true,
                type: () => String,
                description: '1-8192 characters, no control characters.',
              },
            },
          },
        ],
      ],
      controllers: [
        [
          import('./activity-log/activity-log.controller'),
          {
            ActivityLogController: {
              list: {
                summary:
                  "The caller's activity log (tool calls, end-call webhook deliveries, inbound context lookups), newest first.",
                type: t['./activity-log/dto/log-entry.dto'].LogsPageDto,
              },
              health: {
                summary:
                  "Per URL origin the caller's requests went to (default: the last 24 hours): attempts, errors and\ntheir classes, p50/p95 latency, last success and error; most errors first. Answered from\nhourly counters kept with the entries, so the range is widened to whole UTC hours.",
                type: t['./activity-log/dto/log-entry.dto'].LogHealthDto,
              },
              timeline: {
                summary:
                  'Every entry of one call (its real-time room), oldest first: lookup, tool calls, end-call deliveries.',
                type: t['./activity-log/dto/log-entry.dto'].LogTimelineDto,
              },
            },
          },
        ],
        [
          import('./assistant/assistant.controller'),
          {
            AssistantController: {
              create: { type: t['./assistant/dto/assistant-response.dto'].AssistantCreatedDto },
              list: { type: t['./assistant/dto/assistant-response.dto'].AssistantListDto },
              details: { type: t['./assistant/dto/assistant-response.dto'].AssistantDetailsDto },
              update: { type: t['./assistant/dto/assistant-response.dto'].AssistantDetailsDto },
              remove: { type: t['./assistant/dto/assistant-response.dto'].AssistantDeletedDto },
              render: { type: t['./assistant/dto/render-assistant.dto'].RenderedAssistantDto },
              publish: { type: t['./assistant/dto/assistant-version.dto'].AssistantVersionDto },
              listVersions: {
                type: t['./assistant/dto/assistant-version.dto'].AssistantVersionListDto,
              },
            },
          },
        ],
        [
          import('./tool/tool.controller'),
          {
            ToolController: {
              create: { type: t['./tool/dto/tool-response.dto'].CreateToolResponseDto },
              list: { type: t['./tool/dto/tool-response.dto'].ToolListDto },
              details: { type: t['./tool/dto/tool-response.dto'].ToolDetailsDto },
              update: { type: t['./tool/dto/tool-response.dto'].ToolDetailsDto },
              remove: { type: t['./tool/dto/tool-response.dto'].DeleteToolResponseDto },
              attach: { type: t['./tool/dto/tool-response.dto'].AssistantToolsDto },
              detach: { type: t['./tool/dto/tool-response.dto'].AssistantToolsDto },
            },
          },
        ],
        [
          import('./assistant-runtime/assistant-runtime.controller'),
          {
            AssistantRuntimeController: {
              get: { type: t['./assistant-runtime/assistant-runtime.dto'].AssistantRuntimeDto },
            },
          },
        ],
        [
          import('./auth/auth.controller'),
          {
            AuthController: {
              createKey: { type: t['./auth/dto/auth-response.dto'].CreatedKeyDto },
              checkKey: { type: t['./auth/dto/auth-response.dto'].AuthUserDto },
              listKeys: { type: [t['./auth/dto/auth-response.dto'].ApiKeyInfoDto] },
              revokeKey: { type: t['./auth/dto/auth-response.dto'].ApiKeyInfoDto },
              webhookSecret: { type: t['./auth/dto/auth-response.dto'].WebhookSecretDto },
              rotateWebhookSecret: { type: t['./auth/dto/auth-response.dto'].WebhookSecretDto },
            },
          },
        ],
        [
          import('./health/health.controller'),
          {
            HealthController: {
              check: { type: t['./health/health.dto'].HealthDto },
              ready: { type: t['./health/health.dto'].HealthDto },
              live: { type: t['./health/health.dto'].LivenessDto },
            },
          },
        ],
        [
          import('./inbound-context/inbound-context-strategy.controller'),
          {
            InboundContextStrategyController: {
              create: {
                type: t['./inbound-context/dto/strategy-response.dto'].StrategyResponseDto,
              },
              list: { type: t['./inbound-context/dto/strategy-response.dto'].StrategyListDto },
              details: {
                type: t['./inbound-context/dto/strategy-response.dto'].StrategyResponseDto,
              },
              update: {
                type: t['./inbound-context/dto/strategy-response.dto'].StrategyResponseDto,
              },
              delete: { type: t['./inbound-context/dto/strategy-response.dto'].StrategyDeletedDto },
              test: { type: t['./inbound-context/dto/test-strategy.dto'].TestStrategyResultDto },
            },
          },
        ],
        [
          import('./inbound-context/inbound-mapping.controller'),
          {
            InboundMappingController: {
              assign: { type: t['./inbound-context/dto/inbound-response.dto'].InboundResponseDto },
              list: { type: t['./inbound-context/dto/inbound-response.dto'].InboundListDto },
              details: { type: t['./inbound-context/dto/inbound-response.dto'].InboundResponseDto },
              update: { type: t['./inbound-context/dto/inbound-response.dto'].InboundResponseDto },
              delete: { type: t['./inbound-context/dto/inbound-response.dto'].InboundDeletedDto },
            },
          },
        ],
        [
          import('./inbound-context/phone-number-admin.controller'),
          {
            PhoneNumberAdminController: {
              holder: { type: t['./inbound-context/dto/number-holding.dto'].NumberHoldingDto },
              release: { type: t['./inbound-context/dto/number-holding.dto'].NumberHoldingDto },
            },
          },
        ],
        [
          import('./secret/secret.controller'),
          {
            SecretController: {
              create: { type: t['./secret/dto/secret-response.dto'].SecretDetailsDto },
              list: { type: t['./secret/dto/secret-response.dto'].SecretListDto },
              details: { type: t['./secret/dto/secret-response.dto'].SecretDetailsDto },
              update: { type: t['./secret/dto/secret-response.dto'].SecretDetailsDto },
              remove: { type: t['./secret/dto/secret-response.dto'].SecretDeletedDto },
            },
          },
        ],
      ],
    },
  };
};
