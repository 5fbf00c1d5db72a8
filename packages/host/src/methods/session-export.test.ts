import { describe, expect, it } from 'vitest';
import type { HostServices } from '../services.js';
import { sessionExport } from './session-export.js';

describe('session.export', () => {
  it('is HOST_EXPORT_UNAVAILABLE on a host given no exporter, before reading anything', async () => {
    const reads: string[] = [];
    const services = {
      query: {
        observeSession: (id: string) => {
          reads.push(id);
          return Promise.reject(new Error('must not read'));
        },
      },
    } as unknown as HostServices;
    await expect(
      sessionExport(services, { id: 's1', format: 'markdown' }, new AbortController().signal),
    ).rejects.toMatchObject({ code: 'HOST_EXPORT_UNAVAILABLE' });
    expect(reads).toEqual([]);
  });
});
