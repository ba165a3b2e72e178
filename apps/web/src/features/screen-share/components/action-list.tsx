import {
  Avatar,
  Button,
  CircularProgress,
  List,
  ListItem,
  ListItemAvatar,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import CodeOutlined from '@mui/icons-material/CodeOutlined';
import ImageOutlined from '@mui/icons-material/ImageOutlined';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { useTranslation } from 'react-i18next';
import type { ScreenShareAction } from '@pagewright/shared';
import { formatTimestamp } from './format-timestamp';

interface ActionListProps {
  actions: ScreenShareAction[];
  /** The action whose file is being downloaded (its File button shows progress). */
  downloadingKey: string | null;
  onScreen: (action: ScreenShareAction) => void;
  onHtml: (action: ScreenShareAction) => void;
  onFile: (action: ScreenShareAction) => void;
}

/** A loop repeats a sequence, so the sequence alone does not name a row. */
export const actionKey = (action: ScreenShareAction) => `${action.sequence}@${action.timestamp}`;

/** The recorded actions in order: sequence, type, label and time, with their Screen, HTML and File buttons. */
export function ActionList({ actions, downloadingKey, onScreen, onHtml, onFile }: ActionListProps) {
  const { t } = useTranslation();
  if (actions.length === 0)
    return <Typography color="text.secondary">{t('screen.share.actions.empty')}</Typography>;

  return (
    <List aria-label={t('screen.share.actions')} disablePadding>
      {actions.map((action) => {
        const key = actionKey(action);
        const typeName = action.type ? t(`dialogs.action.type.${action.type}`) : '';
        const isDownloading = key === downloadingKey;
        return (
          <ListItem key={key} divider alignItems="flex-start" sx={{ flexWrap: 'wrap', gap: 1, px: 0 }}>
            <ListItemAvatar sx={{ minWidth: 48 }}>
              <Avatar sx={{ bgcolor: 'primary.main', width: 36, height: 36, fontSize: 14 }}>
                {action.sequence}
              </Avatar>
            </ListItemAvatar>
            <ListItemText
              sx={{ flex: '1 1 160px', minWidth: 0 }}
              primary={typeName}
              secondary={
                <>
                  <Typography
                    component="span"
                    variant="body2"
                    sx={{ display: 'block', wordBreak: 'break-word' }}
                  >
                    {action.label ?? action.fileName ?? action.pageUrl ?? t('screen.share.action.untitled')}
                  </Typography>
                  <Typography component="time" variant="caption" dateTime={action.timestamp}>
                    {formatTimestamp(action.timestamp)}
                  </Typography>
                </>
              }
            />
            <Stack direction="row" spacing={0.5} sx={{ alignSelf: 'center' }}>
              <Button
                size="small"
                startIcon={<ImageOutlined />}
                disabled={!action.hasScreen}
                onClick={() => onScreen(action)}
              >
                {t('screen.share.action.screen')}
              </Button>
              <Button
                size="small"
                startIcon={<CodeOutlined />}
                disabled={!action.hasHtml}
                onClick={() => onHtml(action)}
              >
                {t('screen.share.action.html')}
              </Button>
              <Button
                size="small"
                startIcon={
                  isDownloading ? <CircularProgress size={16} color="inherit" /> : <FileDownloadOutlined />
                }
                disabled={!action.hasFile || isDownloading}
                title={action.fileName ?? undefined}
                onClick={() => onFile(action)}
              >
                {t('screen.share.action.file')}
              </Button>
            </Stack>
          </ListItem>
        );
      })}
    </List>
  );
}
