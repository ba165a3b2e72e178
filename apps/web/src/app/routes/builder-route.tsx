import { useEffect, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { defaultUserSettings, type ExtractorType } from '@pagewright/shared';
import { BuilderScreen } from '../../features/builder/components/builder-screen';
import { ScreenShareEndedDialog } from '../../features/builder/components/message-dialogs';
import { useUserSettings } from '../../features/user-settings/api/get-user-settings';
import { PATHS } from '../../lib/paths';
import { useSession } from '../../lib/session';

const TYPE_BY_PATH: Record<string, ExtractorType> = {
  [PATHS.extractor]: 'EXTRACTOR',
  [PATHS.insertor]: 'INSERTOR',
  [PATHS.screenShareExecutor]: 'NAVIGATOR',
};

/** The item id the dashboard (or the screen-share entry) passed: `?id=` survives a reload, router state does not. */
function itemIdOf(search: URLSearchParams, state: unknown): string | null {
  const fromQuery = search.get('id');
  if (fromQuery) return fromQuery;
  if (typeof state === 'object' && state !== null && 'id' in state && typeof state.id === 'string')
    return state.id;
  return null;
}

/**
 * /extractor, /insertor and /screen-share-executor: the action builder for the item passed along.
 * Without one, the extractor and insertor editors go to /dashboard and the navigator editor to /
 * (spec §2).
 */
export function BuilderRoute() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const { isRemoteEngine } = useSession();
  const settings = useUserSettings();
  const [hasShareEnded, setHasShareEnded] = useState(false);
  const extractorType = TYPE_BY_PATH[location.pathname] ?? 'EXTRACTOR';
  const itemId = itemIdOf(search, location.state);
  const isNavigator = extractorType === 'NAVIGATOR';

  // Keep ?id= in the address so a reload reopens the same item.
  useEffect(() => {
    if (itemId && !search.get('id'))
      navigate(
        { pathname: location.pathname, search: `?id=${encodeURIComponent(itemId)}` },
        {
          replace: true,
          state: location.state as unknown,
        },
      );
  }, [itemId, location.pathname, location.state, navigate, search]);

  if (!itemId) return <Navigate to={isNavigator ? PATHS.root : PATHS.dashboard} replace />;
  if (settings.isPending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
        <CircularProgress aria-label={t('app.loading')} />
      </Box>
    );
  const values = settings.data ?? defaultUserSettings();

  const onClosed = () => {
    // Finishing a navigator in remote-engine mode ends the screen share (spec §4).
    if (isNavigator && isRemoteEngine) setHasShareEnded(true);
    else navigate(PATHS.dashboard);
  };

  return (
    <>
      <BuilderScreen
        key={`${extractorType}:${itemId}`}
        extractorType={extractorType}
        itemId={itemId}
        isReadOnlyEdit={values.readOnlyEdit === 'true'}
        pollAfterMs={
          Number(values.checkImageRefreshInterval) || Number(defaultUserSettings().checkImageRefreshInterval)
        }
        onClosed={onClosed}
      />
      <ScreenShareEndedDialog open={hasShareEnded} onClose={() => void navigate(PATHS.dashboard)} />
    </>
  );
}
