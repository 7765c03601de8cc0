import { type ErrorCode, type MessageRef, serverText } from '@kamai/contracts';

/**
 * A command the domain refuses. `kind` tells the API which status to answer:
 * invalid -> 400, forbidden -> 403, not_found -> 404, conflict -> 409.
 */
export type DomainErrorKind = 'invalid' | 'forbidden' | 'not_found' | 'conflict';

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly kind: DomainErrorKind,
    /** The message by its catalogue key; `message` is its English text, for logs. */
    readonly ref: MessageRef,
    /** Field name -> message, for errors that belong to one input. */
    readonly fields?: Record<string, MessageRef>,
    /** A more precise API error code than the kind's default, e.g. `insufficient_balance`. */
    readonly code?: ErrorCode,
  ) {
    super(serverText(ref));
  }
}

/** Exhaustiveness check for switches over unions: adding a case that nobody handles fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}
