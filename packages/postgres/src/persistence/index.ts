// Public API of the PostgreSQL persistence component (filled in by issue 9's work).
export {};
