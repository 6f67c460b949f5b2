/**
 * Property tests for POST /assistant/create and PATCH /assistant/update/:id: generated valid
 * bodies are stored and read back with defaults applied; mutated bodies get a 4xx envelope naming
 * the field and leave no record behind (create) or the record untouched (update); nothing is a 500.
 */
import fc from 'fast-check';
import { AssistantEntity } from '../../src/assistant/assistant.entity';
import {
  TTS_PROVIDERS,
  assistantCreateArb,
  assistantPatchArb,
  chaosArb,
  expectedAfterAssistantPatch,
  expectedAssistant,
  fuzzTimeout,
  isPlainObject,
  type Body,
  type BodySpec,
  type FieldSpec,
  type Mutation,
  type Path,
} from '../utils/arbitraries';
import { fuzzApp, holds, mutatedArb, resourceRoutes, storedArb, withoutMeta } from './fuzz-harness';

const END_CALL_URL = 'http://127.0.0.1:9/hooks/call-ended';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const isPipeline = (body: Body) =>
  body.assistant_llm_mode === undefined || body.assistant_llm_mode === 'pipeline';

/** The assistant fields with their kinds; nested ones follow the body's provider. */
function assistantFields(body: Body, ttsModel: unknown): FieldSpec[] {
  const fields: FieldSpec[] = [
    { path: ['assistant_name'], kind: 'string', max: 100 },
    { path: ['assistant_description'], kind: 'string', max: 10_000 },
    { path: ['assistant_prompt'], kind: 'string', max: 100_000 },
    { path: ['assistant_llm_mode'], kind: 'enum', values: ['pipeline', 'realtime'] },
    { path: ['assistant_start_instruction'], kind: 'string', max: 200 },
    { path: ['assistant_interaction_config'], kind: 'object' },
    { path: ['assistant_interaction_config', 'speaks_first'], kind: 'boolean' },
    { path: ['assistant_interaction_config', 'filler_words'], kind: 'boolean' },
    { path: ['assistant_interaction_config', 'silence_reprompts'], kind: 'boolean' },
    { path: ['assistant_interaction_config', 'silence_reprompt_interval'], kind: 'number' },
    { path: ['assistant_interaction_config', 'silence_max_reprompts'], kind: 'integer' },
    { path: ['assistant_end_call_enabled'], kind: 'boolean' },
    { path: ['assistant_end_call_trigger_phrase'], kind: 'string', max: 2_000 },
    { path: ['assistant_end_call_agent_message'], kind: 'string', max: 2_000 },
    { path: ['assistant_end_call_url'], kind: 'string', max: 2_048 },
    { path: ['assistant_tts_model'], kind: 'enum', values: TTS_PROVIDERS },
    { path: ['assistant_tts_config'], kind: 'object' },
    { path: ['assistant_llm_config'], kind: 'object' },
  ];
  if (isPlainObject(body.assistant_tts_config)) {
    const idKey = ttsModel === 'sarvam' ? 'speaker' : 'voice_id';
    fields.push(
      { path: ['assistant_tts_config', idKey], kind: 'string', max: 200 },
      { path: ['assistant_tts_config', 'api_key'], kind: 'string', max: 500 },
    );
    if (ttsModel === 'sarvam')
      fields.push({
        path: ['assistant_tts_config', 'target_language_code'],
        kind: 'string',
        max: 40,
      });
  }
  if (isPlainObject(body.assistant_llm_config)) {
    fields.push(
      { path: ['assistant_llm_config', 'provider'], kind: 'enum', values: ['gemini'] },
      { path: ['assistant_llm_config', 'model'], kind: 'string', max: 200 },
      { path: ['assistant_llm_config', 'voice'], kind: 'string', max: 200 },
      { path: ['assistant_llm_config', 'api_key'], kind: 'string', max: 500 },
    );
  }
  return fields;
}

function outOfRange(body: Body, ttsModel: unknown): Mutation[] {
  const m = (path: Path, value: unknown, label = 'out of range'): Mutation => ({
    label,
    path,
    value,
  });
  const list: Mutation[] = [
    m(['assistant_name'], '', 'empty name'),
    m(['assistant_name'], 'n'.repeat(101)),
    m(['assistant_name'], '😀'.repeat(101)),
    m(['assistant_description'], ''),
    m(['assistant_prompt'], ''),
    m(['assistant_start_instruction'], 's'.repeat(201)),
    m(['assistant_interaction_config', 'silence_reprompt_interval'], 0.99),
    m(['assistant_interaction_config', 'silence_reprompt_interval'], 60.01),
    m(['assistant_interaction_config', 'silence_reprompt_interval'], -1),
    m(['assistant_interaction_config', 'silence_max_reprompts'], -1),
    m(['assistant_interaction_config', 'silence_max_reprompts'], 6),
    m(['assistant_interaction_config', 'silence_max_reprompts'], 2.5),
    m(['assistant_llm_mode'], 'hybrid'),
    m(['assistant_llm_mode'], 'REALTIME'),
    m(['assistant_tts_model'], 'openai'),
    m(['assistant_end_call_url'], 'ftp://example.com/x'),
    m(['assistant_end_call_url'], 'not a url'),
    m(['assistant_end_call_url'], `https://example.com/${'a'.repeat(2_048)}`),
  ];
  if (isPlainObject(body.assistant_llm_config))
    list.push(m(['assistant_llm_config', 'provider'], 'openai'));
  if (isPlainObject(body.assistant_tts_config) && ttsModel === 'sarvam') {
    list.push(m(['assistant_tts_config', 'target_language_code'], 'bn_IN'));
  }
  return list;
}

const createSpec: BodySpec = {
  fields: (body) => assistantFields(body, body.assistant_tts_model),
  required(body) {
    const req: Path[] = [['assistant_name'], ['assistant_description'], ['assistant_prompt']];
    if (isPipeline(body)) req.push(['assistant_tts_model'], ['assistant_tts_config']);
    if (body.assistant_llm_mode === 'realtime') req.push(['assistant_llm_config']);
    if (isPlainObject(body.assistant_tts_config)) {
      req.push(
        ['assistant_tts_model'],
        ['assistant_tts_config', body.assistant_tts_model === 'sarvam' ? 'speaker' : 'voice_id'],
      );
    }
    if (body.assistant_end_call_enabled === true) {
      req.push(['assistant_end_call_trigger_phrase'], ['assistant_end_call_agent_message']);
    }
    return req;
  },
  closedObjects: () => [
    [],
    ['assistant_interaction_config'],
    ['assistant_tts_config'],
    ['assistant_llm_config'],
  ],
  outOfRange: (body) => outOfRange(body, body.assistant_tts_model),
};

/** Update bodies, against a stored assistant: nothing is required, `null` in a required field breaks it. */
function updateSpec(stored: Body): BodySpec {
  return {
    fields: (patch) => assistantFields({ ...stored, ...patch }, stored.assistant_tts_model),
    required: () => [['assistant_name'], ['assistant_description'], ['assistant_prompt']],
    requiredNullOnly: true,
    closedObjects: () => [
      [],
      ['assistant_interaction_config'],
      ['assistant_tts_config'],
      ['assistant_llm_config'],
    ],
    outOfRange: (patch) => outOfRange({ ...stored, ...patch }, stored.assistant_tts_model),
  };
}

describe('assistant routes (fuzz)', () => {
  const routes = resourceRoutes(fuzzApp(), {
    entity: AssistantEntity,
    createPath: '/assistant/create',
    base: '/assistant',
    idKey: 'assistant_id',
  });

  it(
    'valid create bodies → 200, and the record reads back with the same values and defaults',
    () =>
      holds(
        assistantCreateArb(END_CALL_URL),
        routes.validCreateStored(async (res, body) => {
          const { assistant_id, assistant_name } = (
            res.body as { data: { assistant_id: string; assistant_name: string } }
          ).data;
          expect(assistant_id).toMatch(UUID);
          expect(assistant_name).toBe(body.assistant_name);
          const read = await routes.details(assistant_id);
          expect(read.status).toBe(200);
          expect(withoutMeta(read.body.data, 'assistant_id', 'tool_ids')).toEqual(
            expectedAssistant(body),
          );
          expect(read.body.data.tool_ids).toEqual([]);
        }),
      ),
    fuzzTimeout(),
  );

  it(
    'mutated create bodies → 4xx envelope naming the field, and no record is written',
    () =>
      holds(mutatedArb(assistantCreateArb(END_CALL_URL), createSpec), routes.mutatedCreateRefused),
    fuzzTimeout(),
  );

  it(
    'chaos create bodies (null, junk or random JSON anywhere) → never a 500; a record only on 200',
    () => holds(assistantCreateArb(END_CALL_URL).chain(chaosArb), routes.chaosCreateSafe),
    fuzzTimeout(),
  );

  /** A stored assistant per case: create it, then patch it. */
  const withStored = <T>(f: (created: Body) => fc.Arbitrary<T>) =>
    storedArb(assistantCreateArb(END_CALL_URL), f);

  it(
    'valid update bodies → 200, merged key by key; the response and a fresh read agree',
    () =>
      holds(
        withStored((created) => assistantPatchArb(created, END_CALL_URL)),
        routes.validUpdateMerged(expectedAfterAssistantPatch),
      ),
    fuzzTimeout(),
  );

  it(
    'mutated update bodies → 4xx envelope naming the field, and the record is unchanged',
    () =>
      holds(
        withStored((created) =>
          mutatedArb(assistantPatchArb(created, END_CALL_URL), updateSpec(created)),
        ),
        routes.mutatedUpdateRefused,
      ),
    fuzzTimeout(),
  );

  it(
    'chaos update bodies → never a 500; a refused one leaves the record unchanged',
    () =>
      holds(
        withStored((created) => assistantPatchArb(created, END_CALL_URL).chain(chaosArb)),
        routes.chaosUpdateSafe,
      ),
    fuzzTimeout(),
  );
});
