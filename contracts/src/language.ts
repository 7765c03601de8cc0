import * as v from 'valibot';
import { refusal } from './refusal.ts';

/** The languages the app speaks; the web app's locale files are per language. */
export const LANGUAGES = ['en', 'hi'] as const;
export const Language = v.picklist(LANGUAGES, refusal('api.languageValue'));
export type Language = v.InferOutput<typeof Language>;

export const isLanguage = (value: unknown): value is Language => v.is(Language, value);
