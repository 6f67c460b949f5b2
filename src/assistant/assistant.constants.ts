/** Text-to-speech providers accepted in `assistant_tts_model`, in the order the spec lists them. */
export const TTS_PROVIDERS = ['cartesia', 'sarvam', 'elevenlabs', 'mistral'] as const;
export type TtsProvider = (typeof TTS_PROVIDERS)[number];

export const LLM_MODES = ['pipeline', 'realtime'] as const;
export type LlmMode = (typeof LLM_MODES)[number];
export const DEFAULT_LLM_MODE: LlmMode = 'pipeline';

/** The one realtime provider today; a list so a second one is a one-line change. */
export const REALTIME_PROVIDERS = ['gemini'] as const;
export type RealtimeProvider = (typeof REALTIME_PROVIDERS)[number];

export const REALTIME_LLM_DEFAULTS = {
  provider: 'gemini' as RealtimeProvider,
  model: 'gemini-3.1-flash-live-preview',
  voice: 'Puck',
} as const;

export const SARVAM_DEFAULT_LANGUAGE = 'bn-IN';

export const INTERACTION_DEFAULTS = {
  speaks_first: true,
  filler_words: false,
  silence_reprompts: false,
  silence_reprompt_interval: 10.0,
  silence_max_reprompts: 2,
} as const;

export const LIMITS = {
  name: 100,
  description: 10_000,
  prompt: 100_000,
  startInstruction: 200,
  endCallText: 2_000,
  endCallUrl: 2048,
  providerField: 200,
  apiKey: 500,
  repromptIntervalMin: 1,
  repromptIntervalMax: 60,
  maxRepromptsMin: 0,
  maxRepromptsMax: 5,
} as const;

/**
 * A practical BCP-47 subset: language (2-3 letters), optional script, optional region, variants.
 * Stricter than validator's `isLocale`, which also accepts `bn_IN`.
 */
export const BCP47_PATTERN =
  /^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|\d{3}))?(-([A-Za-z0-9]{5,8}|\d[A-Za-z0-9]{3}))*$/;
