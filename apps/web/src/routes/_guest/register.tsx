import { createFileRoute } from '@tanstack/react-router';
import { RegisterScreen } from '../../features/auth/RegisterScreen.tsx';

export const Route = createFileRoute('/_guest/register')({
  // An invite link carries the inviter's code (docs/invitations.md).
  validateSearch: (search: Record<string, unknown>): { invite?: string } => (typeof search.invite === 'string' ? { invite: search.invite.slice(0, 20) } : {}),
  component: RegisterScreen,
});
