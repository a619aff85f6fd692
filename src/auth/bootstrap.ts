import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenService } from './tokens.js';

export interface BootstrapLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The first start of a secured catalog creates an admin token and writes it to
 * `<data-dir>/admin.token` (mode 0600); the log names the file, never the token.
 */
export async function bootstrapAdminToken(tokens: TokenService, dataDir: string, log: BootstrapLog): Promise<void> {
  if (await tokens.any()) return;
  if (dataDir === ':memory:') {
    log.warn({}, 'no access token exists and an in-memory catalog has no data dir to write one to: set URNBASE_ADMIN_TOKEN');
    return;
  }
  const file = join(dataDir, 'admin.token');
  const { token } = await tokens.create({ name: 'admin', role: 'admin' }, 'urn:li:corpuser:__datahub_system');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  log.info({ file }, 'created the first admin token; read it from this file');
}
