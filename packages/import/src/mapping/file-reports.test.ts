import { describe, expect, it } from 'vitest';
import { FileReports } from './file-reports.js';

describe('FileReports', () => {
  it('reports an unknown type once per file, at its first line, with the count; in line order with the rest', () => {
    const reports = new FileReports('/t.jsonl');
    reports.skipRecord(2, 'malformed JSON');
    reports.unknown(4, 'record type "mystery"');
    reports.unknown(5, 'record type "other"');
    reports.unknown(9, 'record type "mystery"');
    reports.unknown(12, 'record type "mystery"');
    reports.skipRecord(20, 'torn last line');
    expect(reports.list()).toEqual([
      { file: '/t.jsonl', line: 2, kind: 'skipped-record', reason: 'malformed JSON' },
      {
        file: '/t.jsonl',
        line: 4,
        kind: 'skipped-record',
        reason: 'unknown record type "mystery" (3 records; the first at this line)',
      },
      { file: '/t.jsonl', line: 5, kind: 'skipped-record', reason: 'unknown record type "other"' },
      { file: '/t.jsonl', line: 20, kind: 'skipped-record', reason: 'torn last line' },
    ]);
    // Every skipped record counts, listed or folded into its type's report.
    expect(reports.skippedRecords).toBe(6);
  });

  it('counts ignored records by type, without a report and without counting them skipped', () => {
    const reports = new FileReports('/t.jsonl');
    reports.ignore('api-request');
    reports.ignore('attachment:date');
    reports.ignore('api-request');
    expect(Object.fromEntries(reports.ignored)).toEqual({ 'api-request': 2, 'attachment:date': 1 });
    expect(reports.list()).toEqual([]);
    expect(reports.skippedRecords).toBe(0);
  });
});
