import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, type UploadPurpose } from '@kamai/contracts';
import { i18n } from '../../i18n/index.ts';
import { serverErrorText, serverMessage } from '../../i18n/messages.ts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { throttle } from './throttle.ts';

/** Upload progress updates are throttled to 500 ms. */
const UPLOAD_PROGRESS_INTERVAL_MS = 500;


/** What `POST /api/objects/upload` answers. */
interface UploadTicket {
  uploadURL: string;
  method: 'PUT';
  objectURL: string;
}

/** Why a chosen file cannot be uploaded (in the reader's language), or null when it can. */
export function checkImageFile(file: Pick<File, 'size' | 'type'>): string | null {
  if (file.size > MAX_IMAGE_BYTES) return serverMessage({ key: 'api.imageTooLarge' }, IMAGE_TOO_LARGE);
  if (!file.type.startsWith('image/')) return i18n.t('errors:notAnImage');
  return null;
}

/**
 * A failed PUT of the file. Its message is `{status}: {body}` like every failed request of lib/api,
 * so `serverErrorMessage` shows the server's reason (not an image, too large) rather than a bare
 * "upload failed".
 */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`${status}: ${body || 'Upload failed'}`);
  }
}

/** The server's reason a chosen file's upload failed, by its key in the reader's language; 'Upload failed' for anything else. */
export function uploadFailure(error: unknown): string {
  return serverErrorText(error) ?? i18n.t('errors:uploadFailed');
}

/** PUTs the file with XMLHttpRequest, which (unlike fetch) reports upload progress. */
function putFile(url: string, file: File, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.setRequestHeader('Content-Type', file.type);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => (request.status >= 200 && request.status < 300 ? resolve() : reject(new UploadError(request.status, request.responseText)));
    request.onerror = () => reject(new UploadError(request.status, ''));
    request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}

/**
 * Uploads one image the signed way: ask for an upload URL, PUT the file there with
 * its content type, and answer the object address to send as `proofImageUrl`. `onProgress` gets the
 * percentage at most once per 500 ms; a report still held when the upload ends is dropped, as the
 * screen then shows the uploaded image instead of the bar.
 */
export async function uploadImage(
  file: File,
  { onProgress, signal, purpose }: { onProgress: (percent: number) => void; signal?: AbortSignal; purpose?: UploadPurpose },
): Promise<string> {
  // KYC images are stored and guarded apart from proofs; no body means a proof image.
  const ticket = await readJson<UploadTicket>(await apiRequest('POST', '/api/objects/upload', purpose ? { purpose } : undefined));
  if (!ticket) throw new Error('The upload was not accepted');
  const report = throttle(onProgress, UPLOAD_PROGRESS_INTERVAL_MS);
  report(0);
  try {
    await putFile(ticket.uploadURL, file, report, signal);
  } finally {
    report.cancel();
  }
  return ticket.objectURL;
}
