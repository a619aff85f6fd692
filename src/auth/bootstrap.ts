import { closeSync, fchmodSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenService } from './tokens.js';

export interface BootstrapLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The first start of a secured catalog creates an admin token and writes it to
 * `<data-dir>/admin.token` (mode 0600, in a data dir created 0700); the log names the file, never
 * the token. Gives the file when it wrote one (the start banner says so).
 */
export async function bootstrapAdminToken(tokens: TokenService, dataDir: string, log: BootstrapLog): Promise<string | undefined> {
  if (await tokens.any()) return undefined;
  if (dataDir === ':memory:') {
    log.warn({}, 'no access token exists and an in-memory catalog has no data dir to write one to: set URNBASE_ADMIN_TOKEN');
    return undefined;
  }
  // On PostgreSQL nothing else creates the data dir.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'admin.token');
  // The file is opened before the token exists: a token stored but never written down would lock
  // the catalog for good, since later starts see a token and create none.
  const fd = openSync(file, 'w', 0o600);
  try {
    // An existing file keeps its mode when opened: make it owner-only before the secret goes in.
    fchmodSync(fd, 0o600);
    const { token } = await tokens.create({ name: 'admin', role: 'admin' }, 'urn:li:corpuser:__datahub_system');
    writeFileSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  log.info({ file }, 'created the first admin token; read it from this file');
  return file;
}
