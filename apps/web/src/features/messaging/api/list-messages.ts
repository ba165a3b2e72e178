import { useInfiniteQuery } from '@tanstack/react-query';
import { messageListResponseSchema, type MessageListResponse } from '@pagewright/shared';
import { apiRequest } from '../../../lib/api-client';

export type MessageBox = 'received' | 'sent';

export const messageListQueryKey = (box: MessageBox) => ['messages', box] as const;

/** GET /message/received or /message/sent: a page, newest first (quiet: it reloads in the background). */
export function listMessages(box: MessageBox, before: string | null): Promise<MessageListResponse> {
  const query = before ? `?before=${encodeURIComponent(before)}` : '';
  return apiRequest(`/message/${box}${query}`, { schema: messageListResponseSchema, quiet: true });
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
