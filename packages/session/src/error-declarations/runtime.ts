import { defineErrors } from '../define-errors.js';

/** The runtime's codes: each is a start-up refusal of its configuration. */
export const RUNTIME_ERRORS = defineErrors('runtime', {
  /** `RuntimeConfigError`: the runtime options are invalid. */
  RUNTIME_CONFIG_INVALID: {
    meaning: 'The runtime options are invalid (a start-up refusal).',
    was: 'HOST_RUNTIME_CONFIG_INVALID',
  },
  /** `PresetConfigError`: the presets file is malformed. */
  RUNTIME_PRESETS_INVALID: { meaning: 'The presets file is malformed.', was: 'HOST_PRESETS_INVALID' },
  /** `ModelsConfigError`: the models file is missing or malformed. */
  RUNTIME_MODELS_INVALID: {
    meaning: 'The models file is missing or malformed.',
    was: 'HOST_MODELS_INVALID',
  },
  /** `ShareGrantsFileError`: the data folder's `share-grants.json` is unreadable or malformed. */
  RUNTIME_SHARE_GRANTS_INVALID: {
    meaning: "The data folder's share grants file is unreadable or malformed (a start-up refusal).",
  },
});
