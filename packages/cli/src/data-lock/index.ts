/**
 * The data-folder lock for another process that writes a folder as `strand serve` does (the soak's
 * host entry) and for a checker asking whether a folder is left held.
 */
export { acquireDataFolderLock, type DataFolderLock } from './data-folder-lock.js';
export { findDataFolderHolder, type FolderHolder } from './folder-holder.js';
export { LOCK_FILE, RECORD_FILE } from './lock-record.js';
