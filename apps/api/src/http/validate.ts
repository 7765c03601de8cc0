import { sValidator } from '@hono/standard-validator';
import type { ValidationTargets } from 'hono';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { ApiError } from './errors.ts';

/**
 * Validates a request part with a contracts schema. A failure answers 400 with the first message per
 * field in `fields` and the first message overall as `message`; the handler never runs.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends StandardSchemaV1>(
  target: Target,
  schema: Schema,
) {
  return sValidator(target, schema, (result) => {
    if (result.success) return;
    const fields: Record<string, string> = {};
    for (const issue of result.error) {
      const key = (issue.path ?? [])
        .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
        .join('.');
      fields[key || '_'] ??= issue.message;
    }
    const message = result.error[0]?.message ?? 'Invalid request';
    throw new ApiError(400, 'validation_failed', message, fields);
  });
}
