/** The stable codes of the runtime's configuration errors (each is a start-up refusal). */
export type RuntimeErrorCode = (typeof RUNTIME_ERROR_CODES)[number];

export const RUNTIME_ERROR_CODES = [
  /** `RuntimeConfigError`: the runtime options are invalid. */
  'HOST_RUNTIME_CONFIG_INVALID',
  /** `PresetConfigError`: the presets file is malformed. */
  'HOST_PRESETS_INVALID',
  /** `ModelsConfigError`: the models file is missing or malformed. */
  'HOST_MODELS_INVALID',
] as const;
