import { useInfiniteQuery } from '@tanstack/react-query';
import { messageListResponseSchema, type MessageListResponse } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

export type MessageBox = 'received' | 'sent';

/** Both lists: what a sent message makes stale. */
export const MESSAGE_LISTS_QUERY_KEY = ['messages'] as const;
export const messageListQueryKey = (box: MessageBox) => [...MESSAGE_LISTS_QUERY_KEY, box] as const;

/** The spec's calls (data spec §7): GET /message/ is the sent list. */
const LIST_PATHS: Record<MessageBox, string> = { received: '/message/received', sent: '/message/' };

/** GET /message/received or /message/ (sent): a page, newest first (quiet: it reloads in the background). */
export function listMessages(box: MessageBox, before: string | null): Promise<MessageListResponse> {
  const query = before ? `?before=${encodeURIComponent(before)}` : '';
  return apiRequest(`${LIST_PATHS[box]}${query}`, { schema: messageListResponseSchema, quiet: true });
}

/** The panel's list of one box, page by page ("Load more"), reloaded every `refreshIntervalMs`. */
export function useMessageList(box: MessageBox, refreshIntervalMs: number) {
  return useInfiniteQuery({
    queryKey: messageListQueryKey(box),
    queryFn: ({ pageParam }) => listMessages(box, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: refreshIntervalMs,
    staleTime: 0,
  });
}
