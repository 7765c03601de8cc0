import { createFileRoute } from '@tanstack/react-router';
import { InvitationsScreen } from '../../../features/invitations/InvitationsScreen.tsx';
import { invitationSearch } from '../../../features/invitations/invitationSearch.ts';

export const Route = createFileRoute('/_authed/admin/invitations')({
  // The status shown is in the address: a refresh, Back and a shared link keep it.
  validateSearch: invitationSearch,
  component: InvitationsScreen,
});
