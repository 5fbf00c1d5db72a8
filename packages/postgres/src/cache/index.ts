// Public API of the PostgreSQL cache component (filled in by issue 9's work).
export {};
