import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  settingResponseSchema,
  type SettingResponse,
  type UserSettingName,
  type UserSettings,
} from '@pagewright/shared';
import { apiRequest, errorText } from '../../../lib/api-client';
import { userSettingsQueryKey } from '../../../lib/query-client';
import { toast } from '../../../lib/toast';

/** PUT /api/user/settings/:name */
export function updateUserSetting(name: UserSettingName, value: string): Promise<SettingResponse> {
  return apiRequest(`/user/settings/${encodeURIComponent(name)}`, {
    method: 'PUT',
    body: { value },
    schema: settingResponseSchema,
    quiet: true,
  });
}

/** Saves one setting, showing it at once and putting the old value back if the API refuses. */
export function useUpdateUserSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, value }: { name: UserSettingName; value: string }) => updateUserSetting(name, value),
    onMutate: async ({ name, value }) => {
      await queryClient.cancelQueries({ queryKey: userSettingsQueryKey });
      const previous = queryClient.getQueryData<UserSettings>(userSettingsQueryKey);
      if (previous)
        queryClient.setQueryData<UserSettings>(userSettingsQueryKey, { ...previous, [name]: value });
      return { previous };
    },
    onError: (error, _variables, context) => {
      if (context?.previous) queryClient.setQueryData(userSettingsQueryKey, context.previous);
      toast.error(errorText(error));
    },
    onSuccess: (saved) => {
      queryClient.setQueryData<UserSettings>(userSettingsQueryKey, (current) =>
        current ? { ...current, [saved.name]: saved.value } : current,
      );
    },
  });
}
