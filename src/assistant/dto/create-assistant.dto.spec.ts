import { AppException, type FieldError } from '../../common/errors/app.exception';
import { validateOrThrow } from '../../common/validation/validate';
import { CreateAssistantDto } from './create-assistant.dto';
import { UpdateAssistantDto } from './update-assistant.dto';

type Body = Record<string, unknown>;

const pipeline = (over: Body = {}): Body => ({
  assistant_name: 'Support',
  assistant_description: 'Answers billing questions',
  assistant_prompt: 'You are helpful.',
  assistant_tts_model: 'cartesia',
  assistant_tts_config: { voice_id: 'voice-1' },
  ...over,
});

const realtime = (over: Body = {}): Body => ({
  assistant_name: 'Realtime',
  assistant_description: 'd',
  assistant_prompt: 'p',
  assistant_llm_mode: 'realtime',
  assistant_llm_config: {},
  ...over,
});

async function errorsOf(
  body: unknown,
  cls: new () => object = CreateAssistantDto,
): Promise<FieldError[]> {
  try {
    await validateOrThrow(cls, body);
    return [];
  } catch (error) {
    if (!(error instanceof AppException)) throw error;
    expect(error.status).toBe(400);
    return (error.data as { errors: FieldError[] }).errors;
  }
}

/** The distinct field paths at fault, sorted. */
async function fieldsOf(body: unknown, cls?: new () => object): Promise<string[]> {
  return [...new Set((await errorsOf(body, cls)).map((e) => e.field))].sort();
}

const interaction = (config: Body) => pipeline({ assistant_interaction_config: config });

describe(CreateAssistantDto.name, () => {
  it('accepts a minimal pipeline body and a minimal realtime body', async () => {
    expect(await errorsOf(pipeline())).toEqual([]);
    expect(await errorsOf(realtime())).toEqual([]);
  });

  it('accepts the full pipeline body', async () => {
    const body = pipeline({
      assistant_llm_mode: 'pipeline',
      assistant_start_instruction: 'Hello',
      assistant_interaction_config: {
        speaks_first: false,
        filler_words: true,
        silence_reprompts: true,
        silence_reprompt_interval: 12.5,
        silence_max_reprompts: 3,
      },
      assistant_end_call_enabled: true,
      assistant_end_call_trigger_phrase: 'bye',
      assistant_end_call_agent_message: 'Goodbye!',
      assistant_end_call_url: 'https://example.com/ended',
    });
    expect(await errorsOf(body)).toEqual([]);
  });

  describe('required fields', () => {
    it.each(['assistant_name', 'assistant_description', 'assistant_prompt'])(
      '%s is required',
      async (field) => {
        const body = pipeline();
        delete body[field];
        expect(await fieldsOf(body)).toEqual([field]);
      },
    );

    it('rejects empty description and prompt', async () => {
      expect(await fieldsOf(pipeline({ assistant_description: '', assistant_prompt: '' }))).toEqual(
        ['assistant_description', 'assistant_prompt'],
      );
    });

    it('rejects a body that is not an object of fields', async () => {
      expect(await fieldsOf({})).toEqual([
        'assistant_description',
        'assistant_name',
        'assistant_prompt',
        'assistant_tts_config',
        'assistant_tts_model',
      ]);
    });
  });

  describe('messages', () => {
    it('gives one message per failing field', async () => {
      expect(
        await errorsOf({
          assistant_name: '',
          assistant_description: 7,
          assistant_start_instruction: 's'.repeat(201),
          assistant_tts_model: 'cartesia',
          assistant_tts_config: {},
        }),
      ).toEqual([
        { field: 'assistant_name', message: 'assistant_name must be 1-100 characters long' },
        { field: 'assistant_description', message: 'assistant_description must be a string' },
        { field: 'assistant_prompt', message: 'assistant_prompt is required' },
        {
          field: 'assistant_start_instruction',
          message: 'assistant_start_instruction must be at most 200 characters long',
        },
        { field: 'assistant_tts_config.voice_id', message: 'voice_id is required' },
      ]);
    });
  });

  describe('bounds', () => {
    it.each([
      [0, false],
      [1, true],
      [100, true],
      [101, false],
    ])('assistant_name of %i characters: valid=%s', async (length, valid) => {
      const fields = await fieldsOf(pipeline({ assistant_name: 'n'.repeat(length) }));
      expect(fields).toEqual(valid ? [] : ['assistant_name']);
    });

    it.each([
      [200, true],
      [201, false],
    ])('assistant_start_instruction of %i characters: valid=%s', async (length, valid) => {
      const fields = await fieldsOf(pipeline({ assistant_start_instruction: 's'.repeat(length) }));
      expect(fields).toEqual(valid ? [] : ['assistant_start_instruction']);
    });

    it.each([
      [0.99, false],
      [1, true],
      [1.0001, true],
      [10, true],
      [60, true],
      [60.01, false],
      [-5, false],
    ])('silence_reprompt_interval %d: valid=%s', async (value, valid) => {
      const fields = await fieldsOf(interaction({ silence_reprompt_interval: value }));
      expect(fields).toEqual(
        valid ? [] : ['assistant_interaction_config.silence_reprompt_interval'],
      );
    });

    it.each([
      [-1, false],
      [0, true],
      [5, true],
      [6, false],
      [2.5, false],
    ])('silence_max_reprompts %d: valid=%s', async (value, valid) => {
      const fields = await fieldsOf(interaction({ silence_max_reprompts: value }));
      expect(fields).toEqual(valid ? [] : ['assistant_interaction_config.silence_max_reprompts']);
    });
  });

  describe('strict types', () => {
    it.each([
      ['speaks_first', 'true'],
      ['filler_words', 1],
      ['silence_reprompts', 'false'],
      ['silence_reprompt_interval', '5'],
      ['silence_reprompt_interval', true],
      ['silence_max_reprompts', '5'],
      ['silence_max_reprompts', [2]],
    ])('assistant_interaction_config.%s = %p is rejected', async (key, value) => {
      expect(await fieldsOf(interaction({ [key]: value }))).toEqual([
        `assistant_interaction_config.${key}`,
      ]);
    });

    it('rejects a string for assistant_end_call_enabled and numbers for text fields', async () => {
      expect(
        await fieldsOf(
          pipeline({
            assistant_end_call_enabled: 'true',
            assistant_name: 5,
            assistant_prompt: ['p'],
          }),
        ),
      ).toEqual(['assistant_end_call_enabled', 'assistant_name', 'assistant_prompt']);
    });

    it('rejects NaN-like numbers', async () => {
      expect(await fieldsOf(interaction({ silence_reprompt_interval: Number.NaN }))).toEqual([
        'assistant_interaction_config.silence_reprompt_interval',
      ]);
    });

    it('rejects non-object configs', async () => {
      expect(
        await fieldsOf(
          pipeline({
            assistant_interaction_config: 'fast',
            assistant_tts_config: ['voice-1'],
          }),
        ),
      ).toEqual(expect.arrayContaining(['assistant_interaction_config', 'assistant_tts_config']));
      expect(await fieldsOf(realtime({ assistant_llm_config: 'gemini' }))).toEqual([
        'assistant_llm_config',
      ]);
    });
  });

  describe('assistant_llm_mode', () => {
    it('accepts pipeline and realtime only', async () => {
      expect(await fieldsOf(pipeline({ assistant_llm_mode: 'pipeline' }))).toEqual([]);
      expect(await fieldsOf(pipeline({ assistant_llm_mode: 'hybrid' }))).toEqual([
        'assistant_llm_mode',
      ]);
      expect(await fieldsOf(pipeline({ assistant_llm_mode: 'REALTIME' }))).toEqual([
        'assistant_llm_mode',
      ]);
    });
  });

  describe('end call', () => {
    it('requires trigger phrase and agent message when enabled', async () => {
      const errors = await errorsOf(pipeline({ assistant_end_call_enabled: true }));
      expect(errors).toEqual([
        {
          field: 'assistant_end_call_trigger_phrase',
          message:
            'assistant_end_call_trigger_phrase is required when assistant_end_call_enabled is true',
        },
        {
          field: 'assistant_end_call_agent_message',
          message:
            'assistant_end_call_agent_message is required when assistant_end_call_enabled is true',
        },
      ]);
    });

    it('requires each one separately', async () => {
      const base = { assistant_end_call_enabled: true, assistant_end_call_trigger_phrase: 'bye' };
      expect(await fieldsOf(pipeline(base))).toEqual(['assistant_end_call_agent_message']);
      expect(
        await fieldsOf(
          pipeline({
            ...base,
            assistant_end_call_agent_message: 'ok',
            assistant_end_call_trigger_phrase: null,
          }),
        ),
      ).toEqual(['assistant_end_call_trigger_phrase']);
    });

    it('does not require them when disabled or absent, but checks them when sent', async () => {
      expect(await fieldsOf(pipeline({ assistant_end_call_enabled: false }))).toEqual([]);
      expect(await fieldsOf(pipeline({ assistant_end_call_trigger_phrase: 'bye' }))).toEqual([]);
      expect(await fieldsOf(pipeline({ assistant_end_call_trigger_phrase: 7 }))).toEqual([
        'assistant_end_call_trigger_phrase',
      ]);
    });

    it.each([
      ['https://example.com/hook', true],
      ['http://localhost:8080/hook', true],
      ['ftp://example.com/hook', false],
      ['example.com/hook', false],
      ['not a url', false],
      [`https://example.com/${'a'.repeat(2048)}`, false],
    ])('assistant_end_call_url %s: valid=%s', async (url, valid) => {
      expect(await fieldsOf(pipeline({ assistant_end_call_url: url }))).toEqual(
        valid ? [] : ['assistant_end_call_url'],
      );
    });
  });

  describe('pipeline mode', () => {
    it('requires assistant_tts_model and assistant_tts_config', async () => {
      const errors = await errorsOf(
        pipeline({ assistant_tts_model: undefined, assistant_tts_config: undefined }),
      );
      expect(errors).toEqual([
        {
          field: 'assistant_tts_model',
          message:
            'assistant_tts_model is required in pipeline mode and when assistant_tts_config is sent',
        },
        {
          field: 'assistant_tts_config',
          message: 'assistant_tts_config is required in pipeline mode',
        },
      ]);
    });

    it('is the default mode', async () => {
      expect(await fieldsOf(pipeline({ assistant_tts_config: undefined }))).toEqual([
        'assistant_tts_config',
      ]);
      expect(
        await fieldsOf(
          pipeline({ assistant_llm_mode: 'pipeline', assistant_tts_model: undefined }),
        ),
      ).toEqual(['assistant_tts_model']);
    });

    it('rejects an unknown provider', async () => {
      expect(await fieldsOf(pipeline({ assistant_tts_model: 'polly' }))).toEqual([
        'assistant_tts_model',
      ]);
    });

    it('accepts an assistant_llm_config in pipeline mode (stored, unused)', async () => {
      expect(await fieldsOf(pipeline({ assistant_llm_config: { voice: 'Kore' } }))).toEqual([]);
    });
  });

  describe('assistant_tts_config by provider', () => {
    it.each(['cartesia', 'elevenlabs', 'mistral'])(
      '%s requires voice_id, takes api_key',
      async (model) => {
        const body = (config: unknown) =>
          pipeline({ assistant_tts_model: model, assistant_tts_config: config });
        expect(await fieldsOf(body({ voice_id: 'v' }))).toEqual([]);
        expect(await fieldsOf(body({ voice_id: 'v', api_key: 'k-123' }))).toEqual([]);
        expect(await fieldsOf(body({}))).toEqual(['assistant_tts_config.voice_id']);
        expect(await fieldsOf(body({ voice_id: '' }))).toEqual(['assistant_tts_config.voice_id']);
        expect(await fieldsOf(body({ voice_id: 3 }))).toEqual(['assistant_tts_config.voice_id']);
        expect(await fieldsOf(body({ api_key: 'k' }))).toEqual(['assistant_tts_config.voice_id']);
        expect(await fieldsOf(body({ voice_id: 'v', api_key: 42 }))).toEqual([
          'assistant_tts_config.api_key',
        ]);
        expect(await fieldsOf(body({ voice_id: 'v', speaker: 'anushka' }))).toEqual([
          'assistant_tts_config.speaker',
        ]);
        expect(await fieldsOf(body({ voice_id: 'v', target_language_code: 'bn-IN' }))).toEqual([
          'assistant_tts_config.target_language_code',
        ]);
      },
    );

    it('sarvam requires speaker, takes target_language_code (BCP-47) and api_key', async () => {
      const body = (config: unknown) =>
        pipeline({ assistant_tts_model: 'sarvam', assistant_tts_config: config });
      expect(await fieldsOf(body({ speaker: 'anushka' }))).toEqual([]);
      expect(
        await fieldsOf(body({ speaker: 'anushka', target_language_code: 'hi-IN', api_key: 'k' })),
      ).toEqual([]);
      expect(await fieldsOf(body({ speaker: 'anushka', target_language_code: 'en' }))).toEqual([]);
      expect(
        await fieldsOf(body({ speaker: 'anushka', target_language_code: 'zh-Hant-TW' })),
      ).toEqual([]);
      expect(await fieldsOf(body({}))).toEqual(['assistant_tts_config.speaker']);
      expect(await fieldsOf(body({ voice_id: 'v' }))).toEqual([
        'assistant_tts_config.speaker',
        'assistant_tts_config.voice_id',
      ]);
      for (const code of ['bn_IN', 'bengali-india', '', 'b', 'bn-', 42]) {
        expect(await fieldsOf(body({ speaker: 'anushka', target_language_code: code }))).toEqual([
          'assistant_tts_config.target_language_code',
        ]);
      }
    });

    it('names the exact path of a nested error', async () => {
      const errors = await errorsOf(pipeline({ assistant_tts_config: {} }));
      expect(errors.map((e) => e.field)).toEqual(
        expect.arrayContaining(['assistant_tts_config.voice_id']),
      );
      expect(errors.every((e) => e.field === 'assistant_tts_config.voice_id')).toBe(true);
    });

    it('validates the config against the generic keys when the model is unknown', async () => {
      expect(
        await fieldsOf(
          pipeline({
            assistant_tts_model: 'polly',
            assistant_tts_config: { voice_id: 'v', pitch: 2 },
          }),
        ),
      ).toEqual(['assistant_tts_config.pitch', 'assistant_tts_model']);
    });
  });

  describe('realtime mode', () => {
    it('requires assistant_llm_config', async () => {
      const errors = await errorsOf(realtime({ assistant_llm_config: undefined }));
      expect(errors).toEqual([
        {
          field: 'assistant_llm_config',
          message: 'assistant_llm_config is required in realtime mode',
        },
      ]);
      expect(await errorsOf(realtime({ assistant_llm_config: null }))).toEqual([
        {
          field: 'assistant_llm_config',
          message: 'assistant_llm_config is required in realtime mode',
        },
      ]);
      expect(await errorsOf(pipeline({ assistant_tts_config: null }))).toEqual([
        {
          field: 'assistant_tts_config',
          message: 'assistant_tts_config is required in pipeline mode',
        },
      ]);
    });

    it('does not require TTS fields, accepts them when sent', async () => {
      expect(
        await fieldsOf(
          realtime({ assistant_tts_model: 'sarvam', assistant_tts_config: { speaker: 'anushka' } }),
        ),
      ).toEqual([]);
      expect(await fieldsOf(realtime({ assistant_tts_model: 'cartesia' }))).toEqual([]);
    });

    it('still validates TTS config shape when sent, and needs its model', async () => {
      expect(
        await fieldsOf(
          realtime({ assistant_tts_model: 'cartesia', assistant_tts_config: { speaker: 'x' } }),
        ),
      ).toEqual(['assistant_tts_config.speaker', 'assistant_tts_config.voice_id']);
      expect(await fieldsOf(realtime({ assistant_tts_config: { voice_id: 'v' } }))).toEqual([
        'assistant_tts_model',
      ]);
    });

    it('accepts filler_words true (it is stored false)', async () => {
      expect(
        await fieldsOf(realtime({ assistant_interaction_config: { filler_words: true } })),
      ).toEqual([]);
    });

    it.each([
      [{ provider: 'gemini' }, []],
      [{ provider: 'gemini', model: 'gemini-2.5-flash', voice: 'Kore', api_key: 'AIza-123' }, []],
      [{ provider: 'openai' }, ['assistant_llm_config.provider']],
      [{ provider: 'Gemini' }, ['assistant_llm_config.provider']],
      [{ model: '' }, ['assistant_llm_config.model']],
      [{ model: 3 }, ['assistant_llm_config.model']],
      [{ voice: false }, ['assistant_llm_config.voice']],
      [{ api_key: 1 }, ['assistant_llm_config.api_key']],
      [{ temperature: 0.5 }, ['assistant_llm_config.temperature']],
    ])('assistant_llm_config %p -> %p', async (config, fields) => {
      expect(await fieldsOf(realtime({ assistant_llm_config: config }))).toEqual(fields);
    });
  });

  describe('unknown fields', () => {
    it('rejects an unknown top-level field', async () => {
      expect(await errorsOf(pipeline({ assistant_voice: 'x' }))).toEqual([
        { field: 'assistant_voice', message: 'unknown field' },
      ]);
    });

    it('rejects unknown keys inside every config', async () => {
      expect(await errorsOf(interaction({ barge_in: true }))).toEqual([
        { field: 'assistant_interaction_config.barge_in', message: 'unknown field' },
      ]);
      expect(
        await errorsOf(pipeline({ assistant_tts_config: { voice_id: 'v', speed: 1.2 } })),
      ).toEqual([{ field: 'assistant_tts_config.speed', message: 'unknown field' }]);
      expect(await errorsOf(realtime({ assistant_llm_config: { region: 'eu' } }))).toEqual([
        { field: 'assistant_llm_config.region', message: 'unknown field' },
      ]);
    });
  });
});

describe(UpdateAssistantDto.name, () => {
  it('accepts an empty body and any single field', async () => {
    expect(await fieldsOf({}, UpdateAssistantDto)).toEqual([]);
    expect(await fieldsOf({ assistant_name: 'New' }, UpdateAssistantDto)).toEqual([]);
    expect(await fieldsOf({ assistant_llm_mode: 'realtime' }, UpdateAssistantDto)).toEqual([]);
    expect(await fieldsOf({ assistant_end_call_enabled: true }, UpdateAssistantDto)).toEqual([]);
  });

  it('accepts partial nested configs', async () => {
    expect(
      await fieldsOf(
        { assistant_interaction_config: { silence_max_reprompts: 4 } },
        UpdateAssistantDto,
      ),
    ).toEqual([]);
    expect(
      await fieldsOf({ assistant_tts_config: { api_key: '****' } }, UpdateAssistantDto),
    ).toEqual([]);
    expect(await fieldsOf({ assistant_llm_config: { voice: 'Kore' } }, UpdateAssistantDto)).toEqual(
      [],
    );
    expect(await fieldsOf({ assistant_llm_config: { api_key: null } }, UpdateAssistantDto)).toEqual(
      [],
    );
  });

  it('keeps the create rules for what is sent', async () => {
    expect(
      await fieldsOf(
        {
          assistant_name: 'n'.repeat(101),
          assistant_start_instruction: 's'.repeat(201),
          assistant_llm_mode: 'hybrid',
          assistant_tts_model: 'polly',
          assistant_end_call_url: 'nope',
          assistant_interaction_config: {
            silence_reprompt_interval: 0.5,
            silence_max_reprompts: '2',
          },
          assistant_llm_config: { provider: 'openai' },
          assistant_tts_config: { voice_id: 5 },
        },
        UpdateAssistantDto,
      ),
    ).toEqual([
      'assistant_end_call_url',
      'assistant_interaction_config.silence_max_reprompts',
      'assistant_interaction_config.silence_reprompt_interval',
      'assistant_llm_config.provider',
      'assistant_llm_mode',
      'assistant_name',
      'assistant_start_instruction',
      'assistant_tts_config.voice_id',
      'assistant_tts_model',
    ]);
  });

  it('rejects unknown fields at every level', async () => {
    expect(
      await fieldsOf(
        {
          assistant_id: 'x',
          assistant_interaction_config: { barge_in: true },
          assistant_tts_config: { speed: 1 },
          assistant_llm_config: { region: 'eu' },
        },
        UpdateAssistantDto,
      ),
    ).toEqual([
      'assistant_id',
      'assistant_interaction_config.barge_in',
      'assistant_llm_config.region',
      'assistant_tts_config.speed',
    ]);
  });
});
