/**
 * Typed domain errors. The core throws them; api/errors.ts maps them to HTTP status and body in
 * one place. Nothing here knows about HTTP.
 */
export class DomainError extends Error {
  override name = 'DomainError';
}

/** Bad input: a value breaks a schema or a rule. */
export class ValidationError extends DomainError {
  override name = 'ValidationError';
}

/** A URN that does not parse, names an unknown entity type, or carries an invalid key. */
export class InvalidUrnError extends DomainError {
  override name = 'InvalidUrnError';
  constructor(readonly urn: string, readonly reason?: string) {
    // DataHub's wording, which clients match on; a huge non-URN is not repeated whole.
    super(`Invalid urn!: ${urn.length > 300 ? `${urn.slice(0, 200)}… (${urn.length.toLocaleString('en-US')} characters)` : urn}`);
  }
}

/** A request that asks for more than a limit allows (src/limits.ts): the message names the limit. */
export class TooLargeError extends DomainError {
  override name = 'TooLargeError';
}

export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
  constructor(message: string, readonly reason: 'ENTITY' | 'ASPECT' | 'VERSION' = 'ENTITY') {
    super(message);
  }
}

/** A conditional write (If-Version-Match) whose condition does not hold. */
export class PreconditionError extends DomainError {
  override name = 'PreconditionError';
}

/** The request conflicts with the current state (create of something that exists, …). */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
}

export class UnauthorizedError extends DomainError {
  override name = 'UnauthorizedError';
}

export class ForbiddenError extends DomainError {
  override name = 'ForbiddenError';
}

/** Too many attempts (e.g. failed authentication from one address); retry after `retryAfter` seconds. */
export class TooManyRequestsError extends DomainError {
  override name = 'TooManyRequestsError';
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(message);
  }
}

/** The client closed the connection before its answer: the work it asked for was stopped (no one reads the answer). */
export class ClientGoneError extends DomainError {
  override name = 'ClientGoneError';
  constructor() {
    super('The client closed the connection before the answer');
  }
}

/** The database cannot be reached (connection refused or lost, or it did not answer in time); retry shortly. */
export class StoreUnavailableError extends DomainError {
  override name = 'StoreUnavailableError';
}
