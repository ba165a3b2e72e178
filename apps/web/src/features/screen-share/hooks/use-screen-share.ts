import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { isLinkGone, screenShareQueryOptions } from '../api/get-screen-share';

/**
 * The shared run, polled by the spec's rule. The first failed load of a series says the picture is
 * not available yet (spec §8); later failures of the same series stay quiet while the view retries.
 */
export function useScreenShare(token: string) {
  const { t } = useTranslation();
  const query = useQuery(screenShareQueryOptions(token));
  const isFailing = query.isError && !isLinkGone(query.error);
  const wasFailing = useRef(false);

  useEffect(() => {
    if (isFailing && !wasFailing.current) toast.warning(t('navigator.screenshot.error'));
    wasFailing.current = isFailing;
  }, [isFailing, t]);

  return { ...query, isFailing };
}
