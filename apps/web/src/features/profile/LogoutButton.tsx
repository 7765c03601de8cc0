import { forgetSession } from '../../lib/session.ts';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Button } from '../../components/Button.tsx';
import { toast } from '../../lib/toast.ts';
import { useLogoutMutation } from '../auth/authMutations.ts';

/** The user is sent to /login one second after signing out. */
const LOGOUT_REDIRECT_DELAY_MS = 1000;

/**
 * Signs out: on success a 'Logged Out' toast, then after 1 s the cache is cleared and the user goes
 * to /login. The cache is cleared at the moment of leaving, so the screen does not empty itself while
 * the toast shows. A failed logout still clears the cache and goes to /login.
 */
export function LogoutButton() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  const { t } = useTranslation('profile');

  const leave = () => {
    forgetSession();
    queryClient.clear();
    void navigate({ to: '/login' });
  };

  const onLogout = async () => {
    try {
      await logout.mutateAsync();
    } catch {
      leave();
      return;
    }
    toast({ title: t('logout.done'), description: t('logout.doneBody') });
    setTimeout(leave, LOGOUT_REDIRECT_DELAY_MS);
  };

  return (
    <Button variant="danger" onClick={() => void onLogout()} disabled={logout.isPending || logout.isSuccess}>
      {logout.isPending ? t('logout.pending') : t('logout.button')}
    </Button>
  );
}
