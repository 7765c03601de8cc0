import { createFileRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PlaceholderScreen } from '../../components/PlaceholderScreen.tsx';

export const Route = createFileRoute('/_authed/kyc')({
  component: KycVerificationScreen,
});

function KycVerificationScreen() {
  const { t } = useTranslation();
  return <PlaceholderScreen title={t('kycPlaceholder.title')} note={t('kycPlaceholder.note')} />;
}
