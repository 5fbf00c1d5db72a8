import { ProjectionError } from './errors.js';
import type { AnyProjectionUnit } from './types.js';

/** Validates a unit's static shape at registration (its behaviour is checked by its own tests). */
export function checkUnit(unit: AnyProjectionUnit): void {
  if (typeof unit.key !== 'string' || unit.key.length === 0 || unit.key === '__proto__') {
    throw new ProjectionError(
      'PROJECTION_UNIT_INVALID',
      `a projection key must be a non-empty string, got ${JSON.stringify(unit.key)}`,
    );
  }
  if (!Number.isSafeInteger(unit.stateVersion) || unit.stateVersion < 1) {
    throw new ProjectionError(
      'PROJECTION_UNIT_INVALID',
      `unit ${unit.key}: stateVersion must be a positive integer, got ${String(unit.stateVersion)}`,
      {
        details: { key: unit.key },
      },
    );
  }
  const { dataReads } = unit;
  if (
    dataReads !== undefined &&
    (!Array.isArray(dataReads) || !dataReads.every((type) => typeof type === 'string' && type.length > 0))
  ) {
    throw new ProjectionError(
      'PROJECTION_UNIT_INVALID',
      `unit ${unit.key}: dataReads must be an array of event types`,
      { details: { key: unit.key } },
    );
  }
  for (const method of ['init', 'apply', 'view'] as const) {
    if (typeof unit[method] !== 'function') {
      throw new ProjectionError('PROJECTION_UNIT_INVALID', `unit ${unit.key}: ${method} must be a function`, {
        details: { key: unit.key },
      });
    }
  }
}
