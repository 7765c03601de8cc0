import { useTranslation } from 'react-i18next';
import { useEffect, useId, useRef, useState } from 'react';
import type { ChangeEvent } from 'react';
import { MAX_IMAGE_BYTES } from '@kamai/contracts';
import { toast } from '../../lib/toast.ts';
import { CheckCircleIcon, UploadIcon } from '../../components/icons.tsx';
import { checkImageFile, uploadFailure, uploadImage } from './upload.ts';

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'uploading'; percent: number; previewUrl: string; fileName: string }
  | { phase: 'done'; objectURL: string; previewUrl: string; fileName: string };

/**
 * One image chosen and uploaded the signed way, with its progress and its alert (too large, not an
 * image, upload failed): the proof form's and the appeal's. Unmounting (the dialog closing) stops an
 * upload in flight and frees the local previews.
 */
export function useImageUpload() {
  const { t } = useTranslation('tasks');
  const [upload, setUpload] = useState<UploadState>({ phase: 'idle' });
  const [imageAlert, setImageAlert] = useState<string | null>(null);
  const uploadAbort = useRef<AbortController | null>(null);
  const previewUrls = useRef<string[]>([]);

  // Leaving the dialog stops an upload in flight and frees the local previews.
  useEffect(
    () => () => {
      uploadAbort.current?.abort();
      for (const url of previewUrls.current) URL.revokeObjectURL(url);
    },
    [],
  );

  const onFileChosen = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Clear the input, so choosing the same file again still counts as a choice.
    event.target.value = '';
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem) {
      setImageAlert(problem);
      return;
    }
    setImageAlert(null);
    uploadAbort.current?.abort();
    const controller = new AbortController();
    uploadAbort.current = controller;
    const previewUrl = URL.createObjectURL(file);
    previewUrls.current.push(previewUrl);
    setUpload({ phase: 'uploading', percent: 0, previewUrl, fileName: file.name });
    try {
      const objectURL = await uploadImage(file, {
        signal: controller.signal,
        onProgress: (percent) => setUpload((current) => (current.phase === 'uploading' && current.previewUrl === previewUrl ? { ...current, percent } : current)),
      });
      if (controller.signal.aborted) return;
      setUpload({ phase: 'done', objectURL, previewUrl, fileName: file.name });
      toast({ title: t('proof.imageUploaded'), description: t('proof.imageUploadedBody') });
    } catch (error) {
      if (controller.signal.aborted) return;
      setUpload({ phase: 'idle' });
      setImageAlert(uploadFailure(error));
    }
  };

  return { upload, imageAlert, uploading: upload.phase === 'uploading', onFileChosen };
}
export type ImageUpload = ReturnType<typeof useImageUpload>;

/** The picker of `useImageUpload`: a dashed drop area showing the chosen image, the progress bar, the alert. */
export function ImagePicker({ image, label, disabled }: { image: ImageUpload; label: string; disabled: boolean }) {
  const fileInputId = useId();
  const { t } = useTranslation('tasks');
  const { upload, uploading, imageAlert, onFileChosen } = image;
  return (
    <div className="grid gap-1.5">
      <span className="text-sm font-medium text-slate-700">{label}</span>
      <label
        htmlFor={fileInputId}
        className={`relative flex cursor-pointer flex-col items-center justify-center gap-2 overflow-hidden rounded-xl border-2 border-dashed p-4 text-center transition focus-within:ring-2 focus-within:ring-emerald-600 ${
          upload.phase === 'idle' ? 'border-slate-300 bg-slate-50 hover:border-emerald-400' : 'border-emerald-300 bg-emerald-50/40'
        } ${uploading ? 'pointer-events-none' : ''}`}
      >
        {upload.phase === 'idle' ? (
          <>
            <UploadIcon className="size-7 text-slate-400" />
            <span className="text-sm font-semibold text-emerald-700">{t('proof.chooseImage')}</span>
            <span className="text-xs text-slate-500">{t('proof.imageHint', { mb: MAX_IMAGE_BYTES / 1024 / 1024 })}</span>
          </>
        ) : (
          <>
            <ChosenImage key={upload.previewUrl} src={upload.previewUrl} fileName={upload.fileName} />
            {upload.phase === 'done' && (
              <span className="flex items-center gap-1 text-xs font-semibold text-emerald-700">
                <CheckCircleIcon className="size-4" /> {t('proof.uploaded')}
              </span>
            )}
          </>
        )}
        <input
          id={fileInputId}
          type="file"
          accept="image/*"
          aria-label={label}
          disabled={uploading || disabled}
          onChange={(event) => void onFileChosen(event)}
          className="sr-only"
        />
      </label>
      {upload.phase === 'uploading' && (
        <div className="grid gap-1">
          <div
            role="progressbar"
            aria-label={t('proof.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={upload.percent}
            className="h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full rounded-full bg-emerald-500 transition-[width] duration-300" style={{ width: `${upload.percent}%` }} />
          </div>
          <p className="text-xs text-slate-500">{t('proof.uploading', { percent: upload.percent })}</p>
        </div>
      )}
      {imageAlert && (
        <p role="alert" className="rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-700">
          {imageAlert}
        </p>
      )}
    </div>
  );
}

/** The local preview of the chosen file; a format this browser cannot draw shows its name instead. */
function ChosenImage({ src, fileName }: { src: string; fileName: string }) {
  const [broken, setBroken] = useState(false);
  const { t } = useTranslation('tasks');
  if (broken) return <span className="max-w-full truncate text-sm font-medium text-slate-700">{fileName}</span>;
  return <img src={src} alt={t('proof.chosen')} onError={() => setBroken(true)} className="max-h-48 rounded-lg object-contain" />;
}
