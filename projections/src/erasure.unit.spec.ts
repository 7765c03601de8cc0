import { ERASED, ERASED_SHA256, PERSONAL_FIELDS } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { DESTINATION_PATHS, erasedColumns, scrubPaths } from './erasure.ts';
import { DOCUMENT_COLUMNS } from './kyc/projection.ts';

describe('the erasure scrub follows PERSONAL_FIELDS', () => {
  it('overwrites exactly the KYC columns that hold a personal field, a digest with the zero digest', () => {
    expect(erasedColumns('KycDocumentSubmitted', DOCUMENT_COLUMNS)).toEqual({
      front_image_url: ERASED,
      back_image_url: ERASED,
      front_image_sha256: ERASED_SHA256,
      back_image_sha256: ERASED_SHA256,
    });
  });

  it('scrubs a column for every path the list names, so a field newly listed is scrubbed where it is kept', () => {
    const paths = PERSONAL_FIELDS.ProofSubmitted?.paths ?? [];
    const columns = Object.fromEntries([...paths, 'taskId'].map((path) => [path, `col_${path}`]));
    expect(Object.keys(erasedColumns('ProofSubmitted', columns)).sort()).toEqual(paths.map((path) => `col_${path}`).sort());
    // A field the projection does not keep is no column to scrub.
    expect(erasedColumns('ProofSubmitted', { taskId: 'task_id' })).toEqual({});
  });

  it('reads the JSON parts under a prefix from the list too', () => {
    expect([...DESTINATION_PATHS].sort()).toEqual(
      (PERSONAL_FIELDS.WithdrawalRequested?.paths ?? []).map((path) => path.replace('destination.', '')).sort(),
    );
    expect(scrubPaths({ kind: 'bank', accountNumber: '918273645501234', ifsc: 'HDFC0001234' }, DESTINATION_PATHS)).toEqual({
      kind: 'bank',
      accountNumber: ERASED,
      ifsc: 'HDFC0001234',
    });
  });
});
