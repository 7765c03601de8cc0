import { sValidator } from '@hono/standard-validator';
import type { ValidationTargets } from 'hono';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type MessageRef, SERVER_MESSAGES, type ServerMessageKey, msg, refusalOf } from '@kamai/contracts';
import { ApiError } from './errors.ts';

/**
 * A contract schema's refusal as a catalogue message. Schemas are shared with the web's forms and
 * name their refusals by key (contracts/src/refusal.ts); anything else (valibot's own defaults) is a
 * bad request.
 */
export function schemaMessage(text: string | undefined): MessageRef {
  const ref = refusalOf(text);
  if (!ref || !Object.hasOwn(SERVER_MESSAGES, ref.key)) return msg('api.badRequest');
  return msg(ref.key as ServerMessageKey, ref.params);
}

/**
 * Validates a request part with a contracts schema. A failure answers 400 with the first message per
 * field in `fields` and the first message overall as `message`; the handler never runs.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends StandardSchemaV1>(
  target: Target,
  schema: Schema,
) {
  return sValidator(target, target === 'json' ? objectBody(schema) : schema, (result) => {
    if (result.success) return;
    const fields: Record<string, MessageRef> = {};
    for (const issue of result.error) {
      const key = (issue.path ?? [])
        .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
        .join('.');
      fields[key || '_'] ??= schemaMessage(issue.message);
    }
    throw new ApiError(400, 'validation_failed', schemaMessage(result.error[0]?.message), fields);
  });
}

/**
 * Every JSON body the API takes is an object, but valibot's `object` also takes an array (an array
 * is an object to `typeof`), so a body of only optional fields took `[…]` as `{}`. An array is refused here.
 */
function objectBody<Schema extends StandardSchemaV1>(schema: Schema): Schema {
  const standard = schema['~standard'];
  return {
    ...schema,
    '~standard': {
      ...standard,
      validate: (value: unknown) => (Array.isArray(value) ? { issues: [{ message: 'api.badRequest' }] } : standard.validate(value)),
    },
  };
}
