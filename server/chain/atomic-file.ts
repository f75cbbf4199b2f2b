import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { crashPoint } from './crash-points.ts';

/**
 * Replaces `path` with `data` so that a crash at any moment leaves either the old file or the new one, whole:
 * the bytes go to a temp file beside it, are flushed to disk (fsync), and the temp file is renamed over the
 * target (atomic within one directory); the directory is flushed too, so the rename itself survives a power cut.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  const file = await open(temp, 'w', 0o600);
  try {
    await file.writeFile(data);
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temp, { force: true });
    throw error;
  } finally {
    await file.close().catch(() => undefined);
  }
  // The kill -9 suite stops the service here: a whole temp file, the old target untouched.
  crashPoint('atomic-write');
  await rename(temp, path);
  const directory = await open(dir, 'r');
  try {
    await directory.sync();
  } catch {
    // Some file systems refuse to fsync a directory; the rename is still atomic there.
  } finally {
    await directory.close();
  }
}

/** Temp files `writeFileAtomic` left beside `path` when the process died before its rename. */
export const isAtomicTemp = (name: string, target: string) => name.startsWith(`.${target}.`) && name.endsWith('.tmp');
