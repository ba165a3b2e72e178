import {
  Alert,
  Card,
  CardContent,
  CardHeader,
  Chip,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LOCAL_BROWSER_NAME, type BrowserTargetState } from '@pagewright/shared';
import { errorText } from '../../../lib/api-client';
import { useBrowserTier } from '../api/get-browser-tier';

const STATE_COLOR: Record<BrowserTargetState, 'success' | 'error' | 'warning'> = {
  UP: 'success',
  DOWN: 'error',
  REFUSED: 'warning',
};

/**
 * Settings › Browser hosts (issue 27): where flows run. Hosts are the deployment's (each worker's
 * BROWSER_ENDPOINTS, docs/scaling.md), so the card shows their health and load, never a token, and
 * edits nothing.
 */
export function BrowserHostsCard() {
  const { t } = useTranslation();
  const tier = useBrowserTier();
  const rows = (tier.data?.workers ?? []).flatMap((worker) =>
    worker.browsers.map((browser) => ({ workerId: worker.workerId, ...browser })),
  );
  return (
    <Card component="section" aria-labelledby="browser-hosts-title">
      <CardHeader id="browser-hosts-title" title={t('browserhosts.title')} />
      <CardContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('browserhosts.intro')}
        </Typography>
        {tier.isPending && <CircularProgress size={24} aria-label={t('app.loading')} />}
        {tier.isError && <Alert severity="error">{errorText(tier.error)}</Alert>}
        {tier.isSuccess && rows.length === 0 && <Alert severity="warning">{t('browserhosts.none')}</Alert>}
        {rows.length > 0 && (
          <Table size="small" aria-label={t('browserhosts.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('browserhosts.browser')}</TableCell>
                <TableCell>{t('browserhosts.state')}</TableCell>
                <TableCell align="right">{t('browserhosts.contexts')}</TableCell>
                <TableCell>{t('browserhosts.load')}</TableCell>
                <TableCell>{t('browserhosts.worker')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={`${row.workerId}/${row.name}`} aria-label={row.name}>
                  <TableCell>
                    <Typography variant="body2">
                      {row.name === LOCAL_BROWSER_NAME ? t('browserhosts.local') : row.name}
                    </Typography>
                    {row.url && (
                      <Typography variant="caption" color="text.secondary">
                        {row.url}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={STATE_COLOR[row.state]}
                      label={t(`browserhosts.state.${row.state}`)}
                    />
                    {row.reason && (
                      <Typography variant="caption" color="text.secondary" component="p">
                        {row.reason}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="right">{row.contexts}</TableCell>
                  <TableCell>
                    {t('browserhosts.load.value', { load: row.loadAverage.toFixed(1), cores: row.cores })}
                    {row.busy && ` · ${t('browserhosts.busy')}`}
                  </TableCell>
                  <TableCell>
                    <Typography variant="caption">{row.workerId.slice(0, 8)}</Typography>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
