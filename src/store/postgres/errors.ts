import { StoreUnavailableError } from '../../errors.js';
import { StaleWriteError } from '../store.js';

/** Node socket errors and PostgreSQL error classes that mean "the database is not there right now". */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const UNAVAILABLE_MESSAGES = [/connection terminated/i, /timeout exceeded when trying to connect/i, /query read timeout/i, /connection timeout/i, /client has encountered a connection error/i, /cannot use a pool after calling end/i];

/**
 * Translates a pg failure into the store's terms: a lost connection or timeout becomes
 * StoreUnavailableError (HTTP 503), a deadlock or serialization failure a StaleWriteError (the
 * write path re-reads and retries); anything else is passed on.
 */
export function storeError(error: unknown): unknown {
  if (error instanceof StaleWriteError || error instanceof StoreUnavailableError) return error;
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code === '40P01' || code === '40001') return new StaleWriteError(message ?? 'concurrent write');
  const unavailable =
    (code !== undefined && (NETWORK_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '57014')) ||
    UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message ?? ''));
  if (unavailable) return new StoreUnavailableError(`The database is unavailable: ${message ?? code}`);
  return error;
}
