export { openStrandRuntime, type StrandRuntime } from './strand-runtime.js';
export { strandRegistry } from './registry.js';
export {
  POSTGRES_COLD_READ_CONCURRENCY,
  RuntimeConfigError,
  resolveRuntimeOptions,
  type ResolvedRuntimeOptions,
  type RuntimeOptions,
} from './runtime-options.js';
export { FileShareGrantStore, SHARE_GRANTS_FILE, ShareGrantsFileError } from './share-grants-file.js';
export { openStores, type RuntimeSearchIndex, type RuntimeStores } from './stores.js';
export { RUNTIME_ERROR_CODES, type RuntimeErrorCode } from './error-codes.js';
export { DEFAULT_PRESETS, loadPresets, PresetConfigError } from './presets.js';
export { loadModelsFile, ModelsConfigError, type ModelsFile } from './models-file.js';
