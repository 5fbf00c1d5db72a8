// Public API of the PostgreSQL search component (filled in by issue 9's work).
export {};
