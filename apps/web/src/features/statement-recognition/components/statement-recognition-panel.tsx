import { Button, Card, CardContent, CardHeader, Stack, Typography } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PANELS } from '@pagewright/shared';
import { PATHS } from '../../../lib/paths';
import { useTemplateList } from '../../../lib/template-list';

const PANEL_ID = 'statement-recognition';
const TITLE = DASHBOARD_PANELS.find((panel) => panel.id === PANEL_ID)?.title ?? 'Statement Recognition';

/** The dashboard's Statement Recognition panel: process statements, or set up templates. */
export function StatementRecognitionPanel() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const templates = useTemplateList();
  const count = templates.data?.length;
  return (
    <Card
      data-testid={`panel-${PANEL_ID}`}
      sx={{ height: '100%', borderTop: 3, borderTopColor: 'primary.main' }}
    >
      <CardHeader title={TITLE} slotProps={{ title: { variant: 'h6', component: 'h2' } }} />
      <CardContent sx={{ pt: 0 }}>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {count === undefined ? t('statements.panel.loading') : t('statements.panel.templates', { count })}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button variant="contained" onClick={() => void navigate(PATHS.statementRecognition)}>
            {t('statements.panel.process')}
          </Button>
          <Button onClick={() => void navigate(PATHS.templateSettings)}>
            {t('statements.template.settings')}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
