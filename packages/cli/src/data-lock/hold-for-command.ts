import { acquireDataFolderLock, type DataFolderLock } from './data-folder-lock.js';
import type { LockRecord } from './lock-record.js';

/** What a writing `strand doctor` was asked to write (its options `--repair`, `--rebuild-*`). */
export type DoctorWrite = 'repair' | 'rebuild-index' | 'rebuild-cache' | 'rebuild-list';

/** Why each doctor write must not run beside a host, in its own words. */
const DOCTOR_WHY: Readonly<Record<DoctorWrite, string>> = {
  repair: 'repairing beside it would close the turns it is running',
  'rebuild-index': 'rebuilding the search index beside it would race the index it updates on every append',
  'rebuild-cache':
    'rebuilding the projection cache beside it would race the cache rows it writes as its sessions settle',
  'rebuild-list':
    'rebuilding the list index beside it would race the list rows it writes as its sessions settle',
};

/**
 * How each writing command takes its data folder, with the one hint its refusal ends with.
 * `serve` is told to use the host already there; `import`, `demo` and `doctor` cannot write
 * through a host, so they are told to stop it (or to wait for a writer that is no host). A
 * `doctor` says why for each thing it was asked to write (`doctorWrites`, default `repair`).
 */
export function holdDataFolder(
  dataDir: string,
  command: 'serve' | 'import' | 'demo' | 'doctor' | 'acp',
  doctorWrites: readonly DoctorWrite[] = ['repair'],
): Promise<DataFolderLock> {
  return acquireDataFolderLock(dataDir, {
    command,
    advice: (holder) => advice(command, holder, doctorWrites),
  });
}

function advice(
  command: string,
  holder: LockRecord | undefined,
  doctorWrites: readonly DoctorWrite[],
): string {
  const host = holder?.host !== undefined;
  if (!host) return '; wait for it to finish, then run this again';
  // An editor's agent serves no web UI: "open it" would point at a page that is not there.
  if (holder?.command === 'acp')
    return "; it is an editor's agent: close it (or start strand serve before the editor, and the agent works through it)";
  if (command === 'serve')
    return '; it already serves this folder: open it, or stop it first (one host per data folder)';
  if (command === 'acp')
    return '; it holds the folder but announced no host for the editor to work through: wait for it to finish';
  if (command === 'doctor') {
    const why = doctorWrites.map((write) => DOCTOR_WHY[write]);
    const joined = why.length <= 1 ? why.join('') : `${why.slice(0, -1).join(', ')} and ${why.at(-1)!}`;
    return `; stop that host first: ${joined} (plain \`strand doctor\` works beside it)`;
  }
  return `; stop that host first, then run strand ${command} again (a host does not take ${command}s while it runs)`;
}
