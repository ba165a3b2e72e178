import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EMAIL_CHECK_DEBOUNCE_MS, EMAIL_PATTERN } from '@pagewright/shared';
import { emailAvailabilityQueryOptions } from '../api/check-email-available';

export function isWellFormedEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email);
}

/**
 * Asks the API whether an e-mail address is free, EMAIL_CHECK_DEBOUNCE_MS after typing stops.
 * `ensureChecked` answers at once for the current address (used on submit).
 */
export function useEmailAvailability(email: string) {
  const queryClient = useQueryClient();
  const [settledEmail, setSettledEmail] = useState(email);

  useEffect(() => {
    const timer = window.setTimeout(() => setSettledEmail(email), EMAIL_CHECK_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [email]);

  const availability = useQuery({
    ...emailAvailabilityQueryOptions(settledEmail),
    enabled: isWellFormedEmail(settledEmail),
  });

  const isTaken = settledEmail === email && availability.data === false;

  const ensureChecked = async (): Promise<boolean | null> => {
    if (!isWellFormedEmail(email)) return null;
    try {
      return await queryClient.fetchQuery(emailAvailabilityQueryOptions(email));
    } catch {
      // The sign-up call itself reports a taken address; a failed pre-check must not block it.
      return null;
    }
  };

  return { isTaken, ensureChecked };
}
