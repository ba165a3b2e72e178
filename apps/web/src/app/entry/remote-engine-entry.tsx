import { useEffect, useRef } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../lib/paths';
import { storeRemoteEngineSession } from '../../lib/session';
import { toast } from '../../lib/toast';

/** A JWT: header, payload and signature separated by dots. */
function isThreePartToken(token: string): boolean {
  const parts = token.split('.');
  return parts.length === 3 && parts.every((part) => part.length > 0);
}

/**
 * /screen-share-fengine/:token and /messaging-fengine/:token: the F-engine hands over an access
 * token; the session becomes remote-engine (and messaging for the second path).
 */
export function RemoteEngineEntry({ isMessaging }: { isMessaging: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const handledToken = useRef<string | null>(null);

  useEffect(() => {
    if (handledToken.current === token) return;
    handledToken.current = token;
    if (!isThreePartToken(token)) {
      toast.error(t('error.invalid.token.parameter'));
      navigate(PATHS.login, { replace: true });
      return;
    }
    storeRemoteEngineSession(token, isMessaging);
    navigate(PATHS.dashboard, { replace: true });
  }, [token, isMessaging, navigate, t]);

  return null;
}
