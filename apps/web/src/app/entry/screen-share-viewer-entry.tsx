import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { PATHS, pathTo } from '../../lib/paths';
import { storeViewerSession } from '../../lib/session';

/** /screen-share-viewer/:token: a fresh remote-engine session that only holds the navigator token. */
export function ScreenShareViewerEntry() {
  const navigate = useNavigate();
  const { token = '' } = useParams();

  useEffect(() => {
    storeViewerSession(token);
    navigate(pathTo(PATHS.screenShare, { token }), { replace: true });
  }, [token, navigate]);

  return null;
}
