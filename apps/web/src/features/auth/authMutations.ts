import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest, RegisterRequest, UserBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { currentUserQuery } from '../../lib/queries.ts';
import { rememberSession } from '../../lib/sessionHint.ts';

/**
 * Sign-in and sign-up. Both end in a session, so both refetch the current user before they count as
 * done: the screen's pending label stays until the signed-in area can render with the new user.
 */

function useSessionMutation<Body>(path: '/api/auth/login' | '/api/auth/register') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Body) => readJson<UserBody>(await apiRequest('POST', path, body)),
    // 'all': the user query may have no observer on the login screen, and must still be refetched.
    // The browser now holds a session: the user query must ask the server again (sessionHint.ts).
    onSuccess: () => {
      rememberSession();
      return queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey, refetchType: 'all' });
    },
  });
}

export const useLoginMutation = () => useSessionMutation<LoginRequest>('/api/auth/login');

export const useRegisterMutation = () => useSessionMutation<RegisterRequest>('/api/auth/register');

export function useLogoutMutation() {
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/auth/logout');
    },
  });
}
