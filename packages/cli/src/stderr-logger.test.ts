import { describe, expect, it } from 'vitest';
import { logThreshold, stderrLogger } from './stderr-logger.js';

describe('the CLI logger', () => {
  it('writes entries at or above its threshold, each as one strand: line with its fields and error', () => {
    const lines: string[] = [];
    const logger = stderrLogger('warn', (line) => lines.push(line));
    logger.debug('not shown');
    logger.info('not shown either');
    logger.warn('a cache row was unreadable', { sessionId: 's1' });
    logger.error('the search index sync failed', { error: new Error('disk gone') });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe("strand: a cache row was unreadable { sessionId: 's1' }\n");
    expect(lines[1]).toMatch(/^strand: the search index sync failed Error: disk gone\n {4}at /);
  });

  it('names the level of info and debug lines, and writes nothing when silent', () => {
    const lines: string[] = [];
    stderrLogger('debug', (line) => lines.push(line)).debug('probing');
    const silent = stderrLogger('silent', (line) => lines.push(line));
    silent.error('dropped');
    expect(lines).toEqual(['strand: debug: probing\n']);
  });

  it('reads STRAND_LOG, keeping the default (and saying so) for a value it does not know', () => {
    const notes: string[] = [];
    expect(logThreshold(undefined)).toBe('warn');
    expect(logThreshold('DEBUG')).toBe('debug');
    expect(logThreshold('silent')).toBe('silent');
    expect(logThreshold('loud', (line) => notes.push(line))).toBe('warn');
    expect(notes).toEqual([
      'strand: STRAND_LOG=loud is not one of debug, info, warn, error, silent; logging at warn\n',
    ]);
  });
});
