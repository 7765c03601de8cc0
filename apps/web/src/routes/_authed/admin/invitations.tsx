import { createFileRoute } from '@tanstack/react-router';
import { InvitationsScreen, invitationSearch } from '../../../features/invitations/InvitationsScreen.tsx';

export const Route = createFileRoute('/_authed/admin/invitations')({
  // The status shown is in the address: a refresh, Back and a shared link keep it.
  validateSearch: invitationSearch,
  component: InvitationsScreen,
});
