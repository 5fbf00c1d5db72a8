export { composeBaseStack, type BaseStack, type BaseStackOptions, type StackStores } from './base-stack.js';
export {
  openFileStores,
  openDerivedStores,
  STORE_FILES,
  type FilesBackend,
  type OpenFileStoresOptions,
} from './file-stores.js';
export { titleLabeler } from './title-label.js';
export { sessionFacets } from './session-facets.js';
