import * as v from 'valibot';
import { refusal } from './refusal.ts';

/** What an upload is for: proof images and KYC images are stored and guarded apart. */
export const UPLOAD_PURPOSES = ['proof', 'kyc'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** `POST /api/objects/upload`: an optional body; no body (or no purpose) means `proof`. */
export const UploadRequest = v.object({
  purpose: v.optional(v.picklist(UPLOAD_PURPOSES, refusal('api.uploadPurpose')), 'proof'),
});
export type UploadRequest = v.InferOutput<typeof UploadRequest>;
