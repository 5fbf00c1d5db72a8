// Public API of the PostgreSQL coordination component (filled in by issue 9's work).
export {};
