import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileUpdateRequest, UserBody } from '@kamai/contracts';
import { apiRequest, readJson } from '../../lib/api.ts';
import { currentUserQuery } from '../../lib/queries.ts';

/** PUT /api/profile with only the changed fields; the answer is the updated user, kept as the current user. */
export function useUpdateProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ProfileUpdateRequest) => readJson<UserBody>(await apiRequest('PUT', '/api/profile', changes)),
    onSuccess: async (user) => {
      if (user) queryClient.setQueryData(currentUserQuery().queryKey, user);
      else await queryClient.invalidateQueries({ queryKey: currentUserQuery().queryKey });
    },
  });
}
