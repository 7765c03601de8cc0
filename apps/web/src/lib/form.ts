import { useState } from 'react';
import type { FormEvent } from 'react';
import * as v from 'valibot';

/** One message per field, as shown inline under each input. */
export type FieldErrors<Field extends string> = Partial<Record<Field, string>>;

type ObjectSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

/**
 * A small form state for the contracts' valibot schemas: the same schema the API validates with
 * checks the input on submit, and each field shows the first message of its issues. After a failed
 * submit a field is checked again as it changes, so its message goes away once it is right.
 * `setServerErrors` takes server-side field errors (the API's `error.fields`).
 */
export function useSchemaForm<Schema extends ObjectSchema>(
  schema: Schema,
  initialValues: Record<keyof v.InferInput<Schema> & string, string>,
) {
  type Field = keyof v.InferInput<Schema> & string;
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const [submitted, setSubmitted] = useState(false);

  function validate(next: Record<Field, string>): FieldErrors<Field> {
    const result = v.safeParse(schema, next);
    if (result.success) return {};
    const nested: Partial<Record<string, [string, ...string[]]>> = v.flatten(result.issues).nested ?? {};
    const found: FieldErrors<Field> = {};
    for (const field of Object.keys(next) as Field[]) {
      const message = nested[field]?.[0];
      if (message) found[field] = message;
    }
    return found;
  }

  function setValue(field: Field, value: string): void {
    const next = { ...values, [field]: value };
    setValues(next);
    if (submitted) setErrors(validate(next));
  }

  /** Form onSubmit handler: calls `onValid` with the schema's output when every field is valid. */
  function handleSubmit(onValid: (output: v.InferOutput<Schema>) => void | Promise<void>) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setSubmitted(true);
      const result = v.safeParse(schema, values);
      if (result.success) {
        setErrors({});
        void onValid(result.output);
      } else {
        setErrors(validate(values));
      }
    };
  }

  /** Maps a server's `fields` onto the inputs of this form; unknown names are ignored. */
  function setServerErrors(fields: Record<string, string>): void {
    const known: FieldErrors<Field> = {};
    for (const [field, message] of Object.entries(fields)) {
      if (field in values) known[field as Field] = message;
    }
    setErrors(known);
  }

  /** What a field component of components/fields.tsx needs to show and edit `name`. */
  function field(name: Field): { value: string; onValueChange: (value: string) => void; error: string | undefined } {
    return { value: values[name], onValueChange: (value) => setValue(name, value), error: errors[name] };
  }

  return { values, errors, setValue, field, handleSubmit, setServerErrors };
}
