/** The stable codes of the runtime's configuration errors (each is a start-up refusal). */
export type RuntimeErrorCode =
  /** `RuntimeConfigError`: the runtime options are invalid. */
  | 'HOST_RUNTIME_CONFIG_INVALID'
  /** `PresetConfigError`: the presets file is malformed. */
  | 'HOST_PRESETS_INVALID'
  /** `ModelsConfigError`: the models file is missing or malformed. */
  | 'HOST_MODELS_INVALID';

/** Every `RuntimeErrorCode` (the `satisfies` keeps the list equal to the union). */
export const RUNTIME_ERROR_CODES = Object.freeze(
  Object.keys({
    HOST_RUNTIME_CONFIG_INVALID: true,
    HOST_PRESETS_INVALID: true,
    HOST_MODELS_INVALID: true,
  } satisfies Record<RuntimeErrorCode, true>),
) as readonly RuntimeErrorCode[];
