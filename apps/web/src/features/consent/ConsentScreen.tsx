import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { UserBody } from '@kamai/contracts';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { apiRequest, readJson, serverErrorMessage } from '../../lib/api.ts';
import { currentUserQuery } from '../../lib/queries.ts';
import { toast } from '../../lib/toast.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';

/** What the app collects, and why: the Privacy Policy's section 2 and 3 in short. */
const COLLECTED = ['account', 'tasks', 'kyc', 'payouts', 'technical'] as const;

/**
 * Asked at sign-in of people registered before consent was asked (the user body's consentRequired):
 * they agree, with the registration's own words, or go to delete their account instead. Until they
 * agree the signed-in screens lead here, and the server refuses earning, KYC and withdrawals.
 */
export function ConsentScreen() {
  const { t } = useTranslation('auth');
  usePageTitle(t('consentScreen.pageTitle'));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const agree = useMutation({
    mutationFn: async () => readJson<UserBody>(await apiRequest('POST', '/api/profile/consent', { accepted: true })),
    onSuccess: (user) => queryClient.setQueryData(currentUserQuery().queryKey, user),
  });
  const onAgree = async () => {
    try {
      await agree.mutateAsync();
    } catch (error) {
      toast({ variant: 'destructive', title: t('consentScreen.failed'), description: serverErrorMessage(error, t('consentScreen.failed')) });
      return;
    }
    void navigate({ to: '/' });
  };

  return (
    <section aria-labelledby="consent-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h1 id="consent-heading" className="text-2xl font-bold tracking-tight">
        {t('consentScreen.heading')}
      </h1>
      <p className="mt-2 text-sm text-slate-700">{t('consentScreen.intro')}</p>
      <h2 className="mt-5 text-base font-semibold">{t('consentScreen.collectedHeading')}</h2>
      <ul className="mt-2 grid list-disc gap-2 pl-5 text-sm text-slate-700">
        {COLLECTED.map((item) => (
          <li key={item}>{t(`consentScreen.collected.${item}`)}</li>
        ))}
      </ul>
      <p className="mt-5 text-sm font-medium text-slate-800">
        {t('register.consent')}{' '}
        <Link to="/privacy-policy" className="inline-flex min-h-11 items-center font-semibold text-emerald-700 underline">
          {t('register.privacyPolicy')}
        </Link>
      </p>
      <div className="mt-4 grid gap-3">
        <Button onClick={() => void onAgree()} disabled={agree.isPending}>
          {agree.isPending ? t('consentScreen.agreeing') : t('consentScreen.agree')}
        </Button>
        <Link
          to="/delete-account"
          className="inline-flex min-h-12 w-full items-center justify-center rounded-xl border border-red-200 bg-white px-4 text-center text-base font-semibold text-red-700 hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600 focus-visible:ring-offset-2"
        >
          {t('consentScreen.deleteInstead')}
        </Link>
      </div>
    </section>
  );
}
