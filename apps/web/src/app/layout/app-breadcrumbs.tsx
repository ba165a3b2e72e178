import { Breadcrumbs, Link, Typography } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PATHS } from '../../lib/paths';
import { SEGMENT_LABELS } from '../breadcrumb-labels';

interface Crumb {
  key: string;
  label: string;
  to: string;
}

export function AppBreadcrumbs() {
  const { t } = useTranslation();
  const { pathname } = useLocation();

  const segments = pathname.split('/').filter((segment) => segment.length > 0);
  const crumbs: Crumb[] = [];
  segments.forEach((segment, index) => {
    const labelKey = SEGMENT_LABELS[segment.toLowerCase()];
    const to = `/${segments.slice(0, index + 1).join('/')}`;
    if (labelKey && !crumbs.some((crumb) => crumb.label === t(labelKey))) {
      crumbs.push({ key: to, label: t(labelKey), to });
    }
  });

  return (
    <Breadcrumbs aria-label={t('breadcrumb.navigation')} sx={{ color: 'text.secondary' }}>
      <Link component={RouterLink} to={PATHS.dashboard} underline="hover" color="inherit">
        {t('breadcrumb.home')}
      </Link>
      {crumbs.map((crumb, index) =>
        index === crumbs.length - 1 ? (
          <Typography key={crumb.key} color="text.primary" aria-current="page">
            {crumb.label}
          </Typography>
        ) : (
          <Link key={crumb.key} component={RouterLink} to={crumb.to} underline="hover" color="inherit">
            {crumb.label}
          </Link>
        ),
      )}
    </Breadcrumbs>
  );
}
