// Helpers for the KYC API specs only; nothing in the app imports this file.
import type { KycDocumentBody } from '@kamai/contracts';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { UploadAnswer } from '../object-storage/index.ts';
import type { TestClient } from '../testing/index.ts';

/** A real JPEG photo of one colour, carrying camera metadata (make, model, GPS position) as phones write it. */
export function photo(seed: number): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 40, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: 90 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'Phone 1', Copyright: 'Asha Rao' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '19/1 4/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '72/1 52/1 0/1' },
    })
    .toBuffer();
}

/** The browser's two upload steps with purpose `kyc`; returns the objectURL once the PUT stored it (201 from the disk store, 200 from S3). */
export async function kycUpload(baseURL: string, client: TestClient, bytes: Uint8Array, purpose: 'kyc' | 'proof' = 'kyc'): Promise<string> {
  const res = await client.post<UploadAnswer>('/api/objects/upload', { purpose });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const put = await fetch(new URL(res.body.uploadURL, baseURL), { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: bytes });
  expect([200, 201]).toContain(put.status);
  return res.body.objectURL;
}

/** Uploads two fresh photos and submits them as one document (a PAN card with its number, when given); returns the 201 body. */
export async function submitDocument(baseURL: string, client: TestClient, documentType: 'pan' | 'voter_id', seed: number, panNumber?: string): Promise<KycDocumentBody> {
  const frontImageUrl = await kycUpload(baseURL, client, await photo(seed));
  const backImageUrl = await kycUpload(baseURL, client, await photo(seed + 1));
  const res = await client.post<KycDocumentBody>('/api/kyc/documents', { documentType, frontImageUrl, backImageUrl, ...(panNumber && { panNumber }) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
