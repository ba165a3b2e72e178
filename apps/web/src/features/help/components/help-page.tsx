import {
  Button,
  Card,
  CardContent,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import Download from '@mui/icons-material/Download';
import OpenInNew from '@mui/icons-material/OpenInNew';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import { useTranslation } from 'react-i18next';
import { RELEASE_NOTES } from '@pagewright/shared';
import { PageHeading } from '../../../components/page-heading';

/** Release-note PDFs, built into /help/ by scripts/build-release-notes.mjs. */
const helpFileUrl = (file: string) => `/help/${file}`;

export function HelpPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeading>{t('help.title')}</PageHeading>
      <Card>
        <CardContent>
          <Typography color="text.secondary">{t('help.intro')}</Typography>
          <List>
            {RELEASE_NOTES.map((note) => (
              <ListItem
                key={note.id}
                data-testid={`release-notes-${note.id}`}
                divider
                secondaryAction={
                  <Stack direction="row" spacing={1}>
                    <Button
                      href={helpFileUrl(note.file)}
                      target="_blank"
                      rel="noopener"
                      startIcon={<OpenInNew />}
                      aria-label={`${t('help.open')} ${note.title}`}
                    >
                      {t('help.open')}
                    </Button>
                    <Button
                      href={helpFileUrl(note.file)}
                      download={note.file}
                      startIcon={<Download />}
                      aria-label={`${t('help.download')} ${note.title}`}
                    >
                      {t('help.download')}
                    </Button>
                  </Stack>
                }
              >
                <ListItemIcon>
                  <PictureAsPdfOutlined color="primary" />
                </ListItemIcon>
                <ListItemText primary={note.title} secondary={note.file} />
              </ListItem>
            ))}
          </List>
        </CardContent>
      </Card>
    </>
  );
}
