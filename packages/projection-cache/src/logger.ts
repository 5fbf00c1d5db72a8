/** Where the cache reports what it contains: read faults turned into misses, failed writes. */
export interface CacheLogger {
  warn(message: string, fields: Readonly<Record<string, unknown>>): void;
}

export const consoleLogger: CacheLogger = {
  warn: (message, fields) => console.warn(`strand: projection-cache: ${message}`, fields),
};
