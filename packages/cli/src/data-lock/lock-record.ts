import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** The file whose descriptor carries the kernel lock. Never deleted or replaced: a new inode would be a second lock. */
export const LOCK_FILE = 'strand.lock';
/** Who holds the lock, for messages and for readers looking for a host. Replaced atomically. */
export const RECORD_FILE = 'strand.lock.json';
/** A holding host's token, readable by the user only (mode 0600). */
export const TOKEN_FILE = 'strand-host.token';

const webUrl = (protocols: readonly string[]) =>
  z.string().refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
    message: `must be a ${protocols.join(' or ')} URL`,
  });

const LockRecordSchema = z.object({
  version: z.literal(1),
  /** The `strand` command holding the folder: `serve`, `import`, `demo`, `doctor`, … */
  command: z.string().min(1).max(64),
  pid: z.number().int().positive(),
  startedAt: z.number().int().nonnegative(),
  /** Present once a holding host listens: where read commands reach it. */
  host: z
    .object({
      url: webUrl(['http:', 'https:']),
      rpcUrl: webUrl(['ws:', 'wss:']),
      // A bare name inside the data folder: a record must never make a reader send an arbitrary
      // file's contents to the URL beside it.
      tokenFile: z
        .string()
        .regex(/^[A-Za-z0-9._-]+$/)
        .optional(),
    })
    .optional(),
});

export type LockRecord = z.infer<typeof LockRecordSchema>;

export type RecordRead =
  | { readonly kind: 'absent' }
  | { readonly kind: 'valid'; readonly record: LockRecord }
  | { readonly kind: 'invalid'; readonly reason: string };

/** Reads and validates the record; never throws for a missing or malformed one (it is a hint). */
export async function readLockRecord(dataDir: string): Promise<RecordRead> {
  let text: string;
  try {
    text = await readFile(path.join(dataDir, RECORD_FILE), 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { kind: 'absent' };
    return { kind: 'invalid', reason: error instanceof Error ? error.message : String(error) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'not JSON' };
  }
  const parsed = LockRecordSchema.safeParse(json);
  return parsed.success
    ? { kind: 'valid', record: parsed.data }
    : {
        kind: 'invalid',
        reason: parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; '),
      };
}

/**
 * Replaces the record atomically (temp + rename), so a reader sees the old or the new one whole.
 * No fsync: the record only means something while its writer lives, and after a power loss the
 * kernel lock is gone anyway.
 */
export async function writeLockRecord(dataDir: string, record: LockRecord): Promise<void> {
  const temp = path.join(dataDir, `${RECORD_FILE}.${process.pid}.tmp`);
  await writeFile(temp, JSON.stringify(record) + '\n');
  await rename(temp, path.join(dataDir, RECORD_FILE));
}

/** Writes the token readable by the user only: the temp file is created 0600, then renamed. */
export async function writeTokenFile(dataDir: string, token: string): Promise<void> {
  const temp = path.join(dataDir, `${TOKEN_FILE}.${process.pid}.tmp`);
  await rm(temp, { force: true });
  await writeFile(temp, token, { mode: 0o600, flag: 'wx' });
  await rename(temp, path.join(dataDir, TOKEN_FILE));
}

/** The holding host's token, or undefined when it has none or this user may not read it. */
export async function readTokenFile(dataDir: string, record: LockRecord): Promise<string | undefined> {
  if (record.host?.tokenFile === undefined) return undefined;
  try {
    return (await readFile(path.join(dataDir, record.host.tokenFile), 'utf8')).trim();
  } catch {
    // Unreadable (another user's host, or removed as it stopped): the call then fails with the
    // host's own HOST_UNAUTHORIZED, which says what is missing.
    return undefined;
  }
}

export async function removeHolderFiles(dataDir: string): Promise<void> {
  await rm(path.join(dataDir, TOKEN_FILE), { force: true });
  await rm(path.join(dataDir, RECORD_FILE), { force: true });
}

/** `strand serve` (pid 123, http://127.0.0.1:4400) — how messages name a holder. */
export function describeHolder(record: LockRecord | undefined): string {
  if (record === undefined) return 'another strand process (still starting: it has not said who it is yet)';
  return `\`strand ${record.command}\` (pid ${record.pid}${record.host === undefined ? '' : `, ${record.host.url}`})`;
}

export function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
