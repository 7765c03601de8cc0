import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { LoginRequest, RegisterRequest, UserBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { currentUserQuery } from '../../lib/queries.ts';

/**
 * Sign-in and sign-up. Both end in a session, so both refetch the current user before they count as
 * done: the screen's pending label stays until the signed-in area can render with the new user.
 */

async function refreshCurrentUser(queryClient: QueryClient): Promise<void> {
  // 'all': the user query may have no observer on the login screen, and must still be refetched.
  await queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey, refetchType: 'all' });
}

export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: LoginRequest) =>
      readJson<UserBody>(await apiRequest('POST', '/api/auth/login', credentials)),
    onSuccess: () => refreshCurrentUser(queryClient),
  });
}

export function useRegisterMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (account: RegisterRequest) =>
      readJson<UserBody>(await apiRequest('POST', '/api/auth/register', account)),
    onSuccess: () => refreshCurrentUser(queryClient),
  });
}

export function useLogoutMutation() {
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/auth/logout');
    },
  });
}
