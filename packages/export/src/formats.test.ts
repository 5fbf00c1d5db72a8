import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS } from '@strand/protocol';
import { exportFileName, renderExport } from './formats.js';
import { readJsonExport, renderJson, STRAND_EXPORT_JSON_FORMAT } from './json-format.js';
import { documentOf } from './test-document.js';

describe('export formats', () => {
  it('JSON keeps the header and every event exactly, any type included', () => {
    const event = fc.tuple(
      fc.constantFrom('user/message', 'tool/result', 'subagent/descriptor', 'x/newer'),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), fc.boolean(), (body, open) => {
        // A turn still open at the cut, or closed.
        const entries: (readonly [string, unknown])[] = [['turn/start', {}], ...body];
        if (!open) entries.push(['turn/end', { reason: 'completed' }]);
        const running = open;
        const document = documentOf(entries);
        const text = renderJson(document);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        expect(parsed).toMatchObject({ format: STRAND_EXPORT_JSON_FORMAT, version: 1 });
        expect(parsed.header).toEqual(JSON.parse(JSON.stringify(document.header)));
        expect(parsed.events).toEqual(JSON.parse(JSON.stringify(document.events)));
        expect(parsed.cut).toEqual({ lastSeq: entries.length - 1, running });
        expect(readJsonExport(text)).toEqual(JSON.parse(JSON.stringify(document)));
      }),
    );
  });

  it('reads back nothing but its own JSON export', () => {
    for (const text of [
      '',
      'nope',
      '{}',
      '{"format":"strand.session-export","version":2,"header":{},"events":[]}',
    ])
      expect(readJsonExport(text)).toBeUndefined();
  });

  it('every format names its download and its media type', async () => {
    const document = documentOf([['turn/start', {}]]);
    for (const format of EXPORT_FORMATS) {
      const out = await renderExport(format, document);
      expect(out.fileName).toMatch(/^strand-s-export-1\.(md|html|json)$/);
      expect(out.mediaType).not.toBe('');
      expect(out.text.length).toBeGreaterThan(0);
    }
  });

  it('file names are injective and never leave their folder', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const [na, nb] = [exportFileName(a, 'md'), exportFileName(b, 'md')];
        expect(na).toMatch(/^strand-[A-Za-z0-9._-]*\.md$/);
        expect(na === nb).toBe(a === b);
      }),
    );
  });
});
