import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import { AlertTriangleIcon, MailIcon } from '../../components/icons.tsx';
import { currentUserQuery } from '../../lib/queries.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { BulletList, MailLink, PolicyHeader, PolicySection } from './PolicyParts.tsx';
import { deletionMailto, useSupportEmail } from './supportEmail.ts';

/** Spec section 9: how long a deletion request usually takes. */
export const DELETION_PROCESSING = '3-7 business days';

const STEPS: { title: string; text: ReactNode }[] = [
  {
    title: 'Send us your request by e-mail',
    text: 'Use the button below. It opens a pre-filled e-mail to our support team; send it from any e-mail address and include your registered mobile number.',
  },
  {
    title: 'We verify your identity',
    text: 'To make sure nobody else deletes your account, we may reply and ask you to confirm details only the account holder knows, such as your registered mobile number and recent activity.',
  },
  {
    title: 'We process the deletion',
    text: (
      <>
        Once verified, deletion typically takes <span className="whitespace-nowrap">{DELETION_PROCESSING}</span>. Your account stays
        locked during this time, and no new tasks or withdrawals can be started.
      </>
    ),
  },
  {
    title: 'You get a confirmation e-mail',
    text: 'We write to you once your account and its personal data have been deleted.',
  },
];

/** Spec section 2 (Delete account): warning, what goes, the steps, legal retention, the request mail. */
export function DeleteAccountPage() {
  usePageTitle('Delete Account');
  const supportEmail = useSupportEmail();
  const { data: user } = useQuery(currentUserQuery());

  return (
    <article className="grid gap-8 pb-10">
      <PolicyHeader title="Delete Account">
        <p className="text-[15px] leading-relaxed text-slate-700">
          You can ask us to delete your Kamai account and the personal data linked to it at any time. Here is what that means and how
          it works.
        </p>
      </PolicyHeader>

      <div role="note" className="flex gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-900">
        <AlertTriangleIcon className="mt-0.5 size-5 shrink-0 text-amber-600" />
        <div className="grid gap-1 text-[15px] leading-relaxed">
          <p className="font-semibold">Deletion is permanent</p>
          <p>
            A deleted account cannot be restored. Any balance left in your wallet cannot be paid out afterwards, so withdraw it first
            (minimum ₹100) and wait until your pending withdrawals have been paid.
          </p>
        </div>
      </div>

      <PolicySection id="what-is-deleted" title="What is deleted">
        <BulletList>
          <li>Your profile: name, mobile number, e-mail address and notification preferences.</li>
          <li>Your password and every signed-in session.</li>
          <li>Your task history, proof screenshots and their descriptions.</li>
          <li>Your KYC documents (PAN Card and Voter ID images), except where the law requires us to keep them.</li>
          <li>Your notifications and your saved bank account or UPI details.</li>
          <li>Your wallet, including any balance and rewards not yet withdrawn.</li>
        </BulletList>
      </PolicySection>

      <PolicySection id="how-it-works" title="How it works">
        <ol className="grid gap-4">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex gap-3">
              <span
                aria-hidden="true"
                className="grid size-8 shrink-0 place-items-center rounded-full bg-emerald-600 text-sm font-bold text-white"
              >
                {index + 1}
              </span>
              <div className="grid gap-0.5">
                <p className="font-semibold text-slate-900">{step.title}</p>
                <p>{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </PolicySection>

      <PolicySection id="legal-retention" title="What we must keep">
        <p>
          Indian law requires us to keep some records even after an account is deleted: wallet transactions and withdrawal and payout
          records for up to eight years under tax and accounting laws, and identity verification records for the period the law
          requiring them sets. We store them securely, use them for no other purpose than meeting those obligations or defending a
          legal claim, and delete them when that period ends.
        </p>
      </PolicySection>

      <section aria-labelledby="request-heading" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="request-heading" className="text-lg font-semibold text-slate-900">
          Ready to go ahead?
        </h2>
        <p className="text-[15px] leading-relaxed text-slate-700">
          The button opens a deletion request addressed to <MailLink email={supportEmail} />
          {user ? ', already filled in with your account details.' : '. Add your registered mobile number before you send it.'}
        </p>
        <a
          href={deletionMailto(supportEmail, user)}
          className="inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-red-600 px-4 text-base font-semibold text-white shadow-sm transition hover:bg-red-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-red-200"
        >
          <MailIcon className="size-5" />
          Request Account Deletion
        </a>
      </section>

      <nav aria-label="More" className="flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium">
        <Link to="/privacy-policy" className="text-emerald-700 hover:underline">
          Read our Privacy Policy
        </Link>
        <Link to="/" className="text-emerald-700 hover:underline">
          Go to home
        </Link>
      </nav>
    </article>
  );
}
