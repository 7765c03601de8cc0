import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ComponentType, ReactNode, SVGProps } from 'react';
import {
  BellIcon,
  ChevronRightIcon,
  HistoryIcon,
  MailIcon,
  PencilIcon,
  ShieldIcon,
  TrashIcon,
} from '../../components/icons.tsx';
import { NotificationsDialog, UnreadBadge } from '../notifications/NotificationsDialog.tsx';
import { useUnreadCount } from '../notifications/useUnreadCount.ts';
import { currentUserQuery } from '../../lib/queries.ts';
import { staffScreensOf } from '../../lib/staffScreens.ts';
import { KycStatusText } from '../kyc/KycLinks.tsx';
import { LanguageSwitch } from '../../components/LanguageSwitch.tsx';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { AlertsSection } from './AlertsSection.tsx';
import { InviteSection } from './InviteSection.tsx';
import { TaxSummarySection } from './TaxSummarySection.tsx';
import { EditProfileDialog } from './EditProfileDialog.tsx';
import { LogoutButton } from './LogoutButton.tsx';
import { WithdrawalHistoryDialog } from './WithdrawalHistoryDialog.tsx';
import { useSupportEmail } from '../static-pages/supportEmail.ts';
import { fullNameOf, supportMailto } from './supportMail.ts';

type OpenDialog = 'edit' | 'notifications' | 'withdrawals' | null;

/** Profile: who is signed in, the settings rows, staff links by role, and Logout. */
export function ProfileScreen() {
  const { t } = useTranslation('profile');
  usePageTitle(t('pageTitle'));
  const { t: tSecurity } = useTranslation('security');
  const { data: user } = useQuery(currentUserQuery());
  const supportEmail = useSupportEmail();
  const unread = useUnreadCount();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const fullName = fullNameOf(user);
  const dialogProps = (name: Exclude<OpenDialog, null>) => ({
    open: dialog === name,
    onOpenChange: (open: boolean) => setDialog(open ? name : null),
  });

  const staffScreens = staffScreensOf(user);
  const { t: tKyc } = useTranslation('kyc');

  return (
    <section className="grid gap-6">
      <h1 className="text-2xl font-bold tracking-tight">{t('pageTitle')}</h1>
      <div className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
        <span
          aria-hidden="true"
          className="grid size-16 shrink-0 place-items-center rounded-full bg-gradient-to-br from-emerald-500 to-teal-600 text-2xl font-bold text-white shadow-sm"
        >
          {fullName.charAt(0).toUpperCase()}
        </span>
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold" data-testid="profile-name">
            {fullName}
          </p>
          {user && <p className="text-sm text-slate-600">+91 {user.mobile}</p>}
          {user?.email && <p className="truncate text-sm text-slate-500">{user.email}</p>}
        </div>
      </div>

      <ul aria-label={t('settings')} className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        <li>
          <RowButton Icon={PencilIcon} label={t('rows.edit')} onClick={() => setDialog('edit')} />
        </li>
        <li>
          <RowButton
            Icon={BellIcon}
            label={t('rows.notifications')}
            aside={<UnreadBadge count={unread} />}
            onClick={() => setDialog('notifications')}
          />
        </li>
        <li>
          <RowButton Icon={HistoryIcon} label={t('rows.withdrawals')} onClick={() => setDialog('withdrawals')} />
        </li>
        <li>
          <Link to="/kyc" className={rowClasses}>
            <RowContent Icon={ShieldIcon} label={tKyc('profileRow')} aside={<KycStatusText status={user?.kycStatus} />} />
          </Link>
        </li>
        <li>
          {user ? (
            <a href={supportMailto(supportEmail, user)} className={rowClasses}>
              <RowContent Icon={MailIcon} label={t('rows.help')} />
            </a>
          ) : (
            <span className={rowClasses}>
              <RowContent Icon={MailIcon} label={t('rows.help')} />
            </span>
          )}
        </li>
        <li>
          <Link to="/security/devices" className={rowClasses}>
            <RowContent Icon={ShieldIcon} label={tSecurity('rows.devices')} />
          </Link>
        </li>
        <li>
          <Link to="/security/password" className={rowClasses}>
            <RowContent Icon={ShieldIcon} label={tSecurity('rows.password')} />
          </Link>
        </li>
        <li>
          <Link to="/privacy-policy" className={rowClasses}>
            <RowContent Icon={ShieldIcon} label={t('rows.privacy')} />
          </Link>
        </li>
        <li>
          {/* Everything the app holds about the person, as a JSON file (the right of access). */}
          <a href="/api/profile/export" download className={rowClasses}>
            <RowContent Icon={ShieldIcon} label={t('rows.export')} />
          </a>
        </li>
        <li>
          <Link to="/delete-account" className={rowClasses}>
            <RowContent Icon={TrashIcon} label={t('rows.delete')} />
          </Link>
        </li>
      </ul>

      {staffScreens.length > 0 && (
        <section aria-labelledby="staff-heading" className="grid gap-2">
          <h2 id="staff-heading" className="px-1 text-sm font-semibold tracking-wide text-slate-500 uppercase">
            {t('staff.heading')}
          </h2>
          <ul className="divide-y divide-slate-100 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
            {staffScreens.map(({ path, label, Icon }) => (
              <li key={path}>
                <Link to={path as '/admin'} className={rowClasses}>
                  <RowContent Icon={Icon} label={t(`common:${label}`)} />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="language-heading" className="flex items-center justify-between gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
        <h2 id="language-heading" className="text-sm font-medium text-slate-800">
          {t('common:language.label')}
        </h2>
        <LanguageSwitch />
      </section>

      <InviteSection />

      <TaxSummarySection />

      <AlertsSection />

      <LogoutButton />

      {user && <EditProfileDialog {...dialogProps('edit')} user={user} />}
      <NotificationsDialog {...dialogProps('notifications')} />
      <WithdrawalHistoryDialog {...dialogProps('withdrawals')} />
    </section>
  );
}

const rowClasses =
  'flex w-full items-center gap-3 px-4 py-4 text-left text-sm font-medium text-slate-800 transition hover:bg-slate-50 focus:outline-none focus-visible:bg-slate-50 focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-emerald-600';

function RowContent({ Icon, label, aside }: { Icon: ComponentType<SVGProps<SVGSVGElement>>; label: string; aside?: ReactNode }) {
  return (
    <>
      <span aria-hidden="true" className="grid size-9 shrink-0 place-items-center rounded-xl bg-slate-100 text-slate-600">
        <Icon className="size-5" />
      </span>
      <span className="flex-1">{label}</span>
      {aside}
      <ChevronRightIcon className="size-5 shrink-0 text-slate-400" />
    </>
  );
}

function RowButton({
  Icon,
  label,
  aside,
  onClick,
}: {
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
  label: string;
  aside?: ReactNode;
  onClick: () => void;
}) {
  return (
    <button type="button" onClick={onClick} className={rowClasses}>
      <RowContent Icon={Icon} label={label} aside={aside} />
    </button>
  );
}
