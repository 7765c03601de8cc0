import * as v from 'valibot';
import { refusal } from './refusal.ts';

/** The shape of the ids the server makes (UUIDs): an id of another shape, in a path or a body, names nothing. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const CONTROL_CHARACTERS_MESSAGE = 'Remove control characters from this text';

/**
 * C0 controls except tab, line feed and carriage return, DEL, C1 controls, and the bidirectional
 * overrides that make a text read differently from what it stores.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** Refuses control characters in a text people read (names, reasons, descriptions): one rule for all. */
export const noControlCharacters = (message: string = refusal('api.controlCharacters')) => v.check((text: string) => !CONTROL.test(text), message);

export const hasControlCharacters = (text: string) => CONTROL.test(text);
