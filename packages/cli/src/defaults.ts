/** The embedded default data folder (relative to where `strand` runs). */
export const DEFAULT_DATA_DIR = '.strand-data';
