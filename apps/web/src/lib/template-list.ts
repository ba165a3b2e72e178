import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { templateDtoSchema, type TemplateDto } from '@pagewright/shared';
import { apiRequest } from './api-client';

/**
 * The caller's recognition templates: the template settings list them, the recognition screen
 * chooses one, the dashboard panel counts them.
 */
export const templateListQueryKey = ['statement-templates'] as const;

/** GET /statement-recognition-template/user (quiet: lists load in the background). */
export function listTemplates(): Promise<TemplateDto[]> {
  return apiRequest('/statement-recognition-template/user', {
    schema: z.array(templateDtoSchema),
    quiet: true,
  });
}

export function useTemplateList() {
  return useQuery({ queryKey: templateListQueryKey, queryFn: listTemplates, staleTime: 0 });
}
