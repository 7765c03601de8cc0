import { useQuery } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as v from 'valibot';
import { KYC_BONUS_PAISE, KYC_DOCUMENT_TYPES, KycDocumentRequest, MAX_IMAGE_BYTES, type KycDocumentBody, type KycDocumentType, formatPaise } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/fields.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { CheckCircleIcon, UploadIcon } from '../../components/icons.tsx';
import { refusalInLanguage } from '../../i18n/messages.ts';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatRupees } from '../../lib/format.ts';
import { currentUserQuery } from '../../lib/queries.ts';
import { toast } from '../../lib/toast.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { uploadImage } from '../tasks/upload.ts';
// With the Home banner, so Home does not download this screen for it.
import { kycBonusText } from './KycLinks.tsx';
import { KycStatusBadge } from './KycStatusBadge.tsx';
import { kycDocumentsQuery, useClaimKycBonus, useSubmitKycDocument } from './kycQueries.ts';

const SIDES = ['front', 'back'] as const;
type Side = (typeof SIDES)[number];

type Slot =
  | { phase: 'idle' }
  | { phase: 'uploading'; percent: number; previewUrl: string }
  | { phase: 'done'; objectURL: string; previewUrl: string };

/**
 * /kyc: the PAN Card and Voter ID cards, each with a front and a back image
 * slot and a status badge; a document is submitted once both images are uploaded (or with Submit),
 * and only while it is not uploaded or rejected. With both approved, a banner claims the bonus.
 */
export function KycScreen() {
  const { t } = useTranslation('kyc');
  usePageTitle(t('title'));
  const { data: user } = useQuery(currentUserQuery());
  const documents = useQuery(kycDocumentsQuery());
  const byType = (type: KycDocumentType) => documents.data?.find((doc) => doc.documentType === type);
  const bothApproved = documents.data !== undefined && KYC_DOCUMENT_TYPES.every((type) => byType(type)?.status === 'approved');

  return (
    <section className="grid gap-5">
      <header className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">{t('title')}</h1>
        <p className="text-sm text-slate-600">{t('subtitle')}</p>
      </header>

      {user?.kycStatus === 'bonus_claimed' ? <CompletedCard /> : bothApproved ? <ClaimBanner /> : null}

      {documents.isPending ? (
        <div role="status" aria-label={t('loading')} className="grid gap-3">
          {[0, 1].map((index) => (
            <div key={index} className="h-64 animate-pulse rounded-2xl bg-white shadow-sm" />
          ))}
        </div>
      ) : documents.isError ? (
        <LoadFailed message={serverErrorMessage(documents.error, t('loadFailed'))} error={documents.error} onRetry={() => void documents.refetch()} />
      ) : (
        <div className="grid gap-4">
          {KYC_DOCUMENT_TYPES.map((type) => {
            const document = byType(type);
            // A new submission starts with empty slots.
            return <DocumentCard key={`${type}-${document?.id ?? 'none'}`} type={type} document={document} />;
          })}
        </div>
      )}
    </section>
  );
}

function CompletedCard() {
  const { t } = useTranslation('kyc');
  return (
    <div role="status" data-testid="kyc-completed" className="flex items-start gap-3 rounded-2xl border border-emerald-200 bg-emerald-50 p-4">
      <CheckCircleIcon className="size-6 shrink-0 text-emerald-600" />
      <div>
        <p className="font-semibold text-emerald-900">{t('completed.title')}</p>
        <p className="text-sm text-emerald-800">{t('completed.text', { amount: kycBonusText() })}</p>
      </div>
    </div>
  );
}

function ClaimBanner() {
  const { t } = useTranslation('kyc');
  const claim = useClaimKycBonus();
  const once = useSendOnce();
  const amount = kycBonusText();

  const onClaim = async () => {
    try {
      const sent = await once.send(() => claim.mutateAsync());
      if (!sent) return;
      const result = sent.value;
      toast({ title: t('toast.completed'), description: t('toast.completedText', { amount: formatRupees(result?.rupees ?? formatPaise(KYC_BONUS_PAISE)) }) });
    } catch (error) {
      toast({ variant: 'destructive', title: t('toast.incomplete'), description: serverErrorMessage(error, t('toast.incompleteText')) });
    }
  };

  return (
    <section
      aria-labelledby="kyc-claim-title"
      data-testid="kyc-claim"
      className="grid gap-3 rounded-2xl bg-gradient-to-br from-emerald-600 to-teal-600 p-5 text-white shadow-md"
    >
      <div>
        <h2 id="kyc-claim-title" className="font-semibold">
          {t('claim.title')}
        </h2>
        <p className="text-sm text-emerald-50">{t('claim.text', { amount })}</p>
      </div>
      <Button variant="secondary" onClick={() => void onClaim()} disabled={once.busy}>
        {once.busy ? t('claim.claiming') : t('claim.button', { amount })}
      </Button>
    </section>
  );
}

function DocumentCard({ type, document }: { type: KycDocumentType; document: KycDocumentBody | undefined }) {
  const { t } = useTranslation('kyc');
  const status = document?.status ?? 'none';
  const canUpload = status === 'none' || status === 'rejected';
  const name = t(`documents.${type}`);
  const titleId = `kyc-${type}-title`;

  return (
    <article aria-labelledby={titleId} data-testid={`kyc-${type}`} className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <header className="flex items-center justify-between gap-3">
        <h2 id={titleId} className="font-semibold text-slate-900">
          {name}
        </h2>
        <KycStatusBadge status={status} />
      </header>
      {status === 'rejected' && document?.rejectionReason && (
        <p role="note" className="rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {t('rejectionReason', { reason: document.rejectionReason })}
        </p>
      )}
      {canUpload ? (
        <UploadForm type={type} resubmitting={status === 'rejected'} />
      ) : (
        document && (
          <>
            <div className="grid grid-cols-2 gap-3">
              {SIDES.map((side) => (
                <StoredImage key={side} src={side === 'front' ? document.frontImageUrl : document.backImageUrl} alt={t('imageAlt', { document: name, side: t(`side.${side}`) })} />
              ))}
            </div>
            {document.panNumber && (
              <p className="text-sm text-slate-700" data-testid="kyc-pan-number">
                {t('pan.shown', { pan: document.panNumber })}
              </p>
            )}
            <p className="text-xs text-slate-500">{status === 'pending' ? t('underReview') : t('approvedNote')}</p>
          </>
        )
      )}
    </article>
  );
}

function UploadForm({ type, resubmitting }: { type: KycDocumentType; resubmitting: boolean }) {
  const { t } = useTranslation('kyc');
  const submit = useSubmitKycDocument();
  const once = useSendOnce();
  const [slots, setSlots] = useState<Record<Side, Slot>>({ front: { phase: 'idle' }, back: { phase: 'idle' } });
  const previews = useRef<string[]>([]);
  const submittedPair = useRef<string | null>(null);
  const name = t(`documents.${type}`);
  const { front, back } = slots;
  // The PAN card may carry its number (for the yearly earnings statement); optional, as the API takes it.
  const [pan, setPan] = useState('');
  const [panServerError, setPanServerError] = useState<string | null>(null);
  const panCheck = type === 'pan' && pan.trim() !== '' ? v.safeParse(KycDocumentRequest.entries.panNumber, pan) : null;
  const panError = panCheck && !panCheck.success ? refusalInLanguage(panCheck.issues[0].message) : panServerError;
  const panNumber = panCheck?.success ? panCheck.output : undefined;
  const panComplete = panCheck === null || panCheck.success;
  const ready = front.phase === 'done' && back.phase === 'done' && panComplete;
  const uploading = front.phase === 'uploading' || back.phase === 'uploading';

  useEffect(() => () => previews.current.forEach((url) => URL.revokeObjectURL(url)), []);

  const onSubmit = async () => {
    if (front.phase !== 'done' || back.phase !== 'done') {
      toast({ variant: 'destructive', title: t('toast.incomplete'), description: t('toast.incompleteText') });
      return;
    }
    if (!panComplete) return;
    submittedPair.current = `${front.objectURL} ${back.objectURL}`;
    let sent;
    try {
      sent = await once.send(() =>
        submit.mutateAsync({ documentType: type, frontImageUrl: front.objectURL, backImageUrl: back.objectURL, ...(panNumber !== undefined && { panNumber }) }),
      );
    } catch (error) {
      setPanServerError(serverFieldErrors(error).panNumber ?? null);
      toast({ variant: 'destructive', title: t('toast.uploadFailed'), description: serverErrorMessage(error, t('toast.uploadFailedText')) });
      return;
    }
    if (!sent) return;
    toast({ title: t('toast.documentUploaded'), description: t('toast.documentUploadedText', { document: name }) });
  };

  // Submitted automatically once both images are uploaded, once per pair of images.
  useEffect(() => {
    // A PAN being typed (not yet a whole one) holds the submission until it is complete or cleared.
    if (front.phase === 'done' && back.phase === 'done' && panComplete && submittedPair.current !== `${front.objectURL} ${back.objectURL}`) void onSubmit();
    // onSubmit reads the same slots; the pair check keeps this to one submission per pair.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [front, back, panComplete]);

  const onFileChosen = async (side: Side, event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem =
      file.size > MAX_IMAGE_BYTES ? t('fileTooLarge', { mb: MAX_IMAGE_BYTES / 1024 / 1024 }) : file.type.startsWith('image/') ? null : t('notAnImage');
    if (problem) {
      toast({ variant: 'destructive', title: t('toast.uploadFailed'), description: problem });
      return;
    }
    const previewUrl = URL.createObjectURL(file);
    previews.current.push(previewUrl);
    const set = (slot: Slot) => setSlots((current) => ({ ...current, [side]: slot }));
    set({ phase: 'uploading', percent: 0, previewUrl });
    try {
      const objectURL = await uploadImage(file, {
        purpose: 'kyc',
        onProgress: (percent) =>
          setSlots((current) => {
            const slot = current[side];
            return slot.phase === 'uploading' && slot.previewUrl === previewUrl ? { ...current, [side]: { ...slot, percent } } : current;
          }),
      });
      set({ phase: 'done', objectURL, previewUrl });
      toast({ title: t('toast.imageUploaded'), description: t('toast.imageUploadedText', { side: t(`side.${side}`), document: name }) });
    } catch (error) {
      set({ phase: 'idle' });
      toast({ variant: 'destructive', title: t('toast.uploadFailed'), description: serverErrorMessage(error, t('toast.uploadFailedText')) });
    }
  };

  return (
    <div className="grid gap-3">
      {resubmitting && <p className="text-xs text-slate-500">{t('reuploadHint')}</p>}
      {type === 'pan' && (
        <TextField
          label={t('pan.label')}
          hint={t('pan.hint')}
          value={pan}
          onValueChange={(value) => {
            setPan(value.toUpperCase());
            setPanServerError(null);
          }}
          error={panError ?? undefined}
          maxLength={10}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          disabled={once.busy}
        />
      )}
      <div className="grid grid-cols-2 gap-3">
        {SIDES.map((side) => (
          <ImageSlot
            key={side}
            side={side}
            document={name}
            slot={slots[side]}
            disabled={slots[side].phase === 'uploading' || once.busy}
            onChange={(event) => void onFileChosen(side, event)}
          />
        ))}
      </div>
      <Button onClick={() => void onSubmit()} disabled={!ready || uploading || once.busy}>
        {once.busy ? t('submitting') : t('submit')}
      </Button>
    </div>
  );
}

function ImageSlot({
  side,
  document,
  slot,
  disabled,
  onChange,
}: {
  side: Side;
  document: string;
  slot: Slot;
  disabled: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation('kyc');
  const inputId = useId();
  const sideName = t(`side.${side}`);
  return (
    <div className="grid gap-1.5">
      <label
        htmlFor={inputId}
        className={`relative flex min-h-32 cursor-pointer flex-col items-center justify-center gap-1 overflow-hidden rounded-xl border-2 border-dashed p-3 text-center transition focus-within:ring-2 focus-within:ring-emerald-600 ${
          slot.phase === 'idle' ? 'border-slate-300 bg-slate-50 hover:border-emerald-400' : 'border-emerald-300 bg-emerald-50/40'
        } ${disabled ? 'pointer-events-none' : ''}`}
      >
        {slot.phase === 'idle' ? (
          <>
            <UploadIcon className="size-6 text-slate-400" />
            <span className="text-sm font-semibold text-emerald-700">{t('chooseImage', { side: sideName })}</span>
            <span className="text-xs text-slate-500">{t('imageHint')}</span>
          </>
        ) : (
          <>
            <Preview src={slot.previewUrl} alt={t('imageAlt', { document, side: sideName })} />
            {slot.phase === 'done' && (
              <span className="flex items-center gap-1 text-xs font-semibold text-emerald-700" data-testid="kyc-uploaded">
                <CheckCircleIcon className="size-4" /> {t('uploaded')}
              </span>
            )}
          </>
        )}
        <input
          id={inputId}
          type="file"
          accept="image/*"
          aria-label={t('imageInput', { document, side: sideName })}
          disabled={disabled}
          onChange={onChange}
          className="sr-only"
        />
      </label>
      {slot.phase === 'uploading' && (
        <div className="grid gap-1">
          <div
            role="progressbar"
            aria-label={t('uploadProgress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={slot.percent}
            className="h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full rounded-full bg-emerald-500 transition-[width] duration-300" style={{ width: `${slot.percent}%` }} />
          </div>
          <p className="text-xs text-slate-500">{t('uploading', { percent: slot.percent })}</p>
        </div>
      )}
    </div>
  );
}

/** A chosen image's preview; when the browser cannot draw it, an 'uploaded' tick instead. */
function Preview({ src, alt }: { src: string; alt: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) return <CheckCircleIcon className="size-8 text-emerald-600" aria-label={alt} />;
  return <img src={src} alt={alt} onError={() => setBroken(true)} className="max-h-28 rounded-lg object-contain" />;
}

/** A submitted image as the server keeps it; a failed load shows the 'uploaded' tick. */
function StoredImage({ src, alt }: { src: string; alt: string }) {
  const { t } = useTranslation('kyc');
  const [broken, setBroken] = useState(false);
  return (
    <div className="grid min-h-28 place-items-center overflow-hidden rounded-xl bg-slate-100 p-2">
      {broken ? (
        <span className="flex items-center gap-1 text-xs font-semibold text-emerald-700" data-testid="kyc-uploaded">
          <CheckCircleIcon className="size-5" /> {t('uploaded')}
        </span>
      ) : (
        <img src={src} alt={alt} onError={() => setBroken(true)} className="max-h-40 w-full object-contain" />
      )}
    </div>
  );
}
