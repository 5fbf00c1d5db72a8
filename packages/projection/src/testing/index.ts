// Test helpers other packages' unit tests reuse (never imported by production code).
export { bomb } from './sessions.js';
export { describeUnitLawsOver, type LawLog, type UnitLawDomain } from './unit-laws.js';
