import { useState } from 'react';
import {
  Box,
  Button,
  IconButton,
  ListItem,
  ListItemButton,
  ListItemText,
  Tab,
  Tabs,
  Tooltip,
  Typography,
} from '@mui/material';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PANELS, MESSAGES, listSubject, type MessageListItem } from '@pagewright/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ItemListCard } from '../../../components/item-list-card';
import { useLiveEvents } from '../../../lib/live-events';
import { PATHS, pathTo } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { deleteMessage } from '../api/delete-message';
import { messageListQueryKey, useMessageList, type MessageBox } from '../api/list-messages';
import { messageDateText } from '../message-format';

const TITLE = DASHBOARD_PANELS.find((panel) => panel.id === 'messaging')?.title ?? 'Messaging';

function MessageRow({
  message,
  box,
  onOpen,
  onDelete,
}: {
  message: MessageListItem;
  box: MessageBox;
  onOpen: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const subject = listSubject(message.subject);
  const party = box === 'received' ? message.from : message.to;
  return (
    <ListItem
      disablePadding
      data-testid="message-row"
      secondaryAction={
        <Tooltip title={t('messaging.delete.title')}>
          <IconButton
            edge="end"
            aria-label={t('messaging.delete', { subject: message.subject })}
            onClick={onDelete}
          >
            <DeleteOutlined />
          </IconButton>
        </Tooltip>
      }
    >
      <ListItemButton onClick={onOpen} aria-label={t('messaging.open', { subject: message.subject })}>
        <ListItemText
          primary={
            <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              <Box component="span" sx={{ fontWeight: message.isRead ? 400 : 700 }} title={message.subject}>
                {subject}
              </Box>
              {message.attachmentCount > 0 && (
                <AttachFile fontSize="inherit" titleAccess={t('messaging.has.files')} />
              )}
            </Box>
          }
          secondary={
            <>
              <Typography component="span" variant="caption" sx={{ display: 'block' }} noWrap>
                {party}
              </Typography>
              <Typography component="time" variant="caption" dateTime={message.datetime}>
                {messageDateText(message.datetime)}
              </Typography>
            </>
          }
        />
      </ListItemButton>
    </ListItem>
  );
}

/**
 * The Messaging panel of the dashboard (data spec §2): received and sent messages, subject cut to
 * 27 characters plus an ellipsis past 30, US date with seconds, unread ones bold; reloaded every
 * `refreshIntervalMs` and at once when a message arrives (WebSocket). New message, open, delete.
 */
export function MessagingPanel({ refreshIntervalMs }: { refreshIntervalMs: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [box, setBox] = useState<MessageBox>('received');
  const [deleting, setDeleting] = useState<MessageListItem | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const list = useMessageList(box, refreshIntervalMs);

  useLiveEvents(
    ['message-received'],
    () => void queryClient.invalidateQueries({ queryKey: messageListQueryKey('received') }),
  );

  const remove = async () => {
    if (!deleting) return;
    setIsBusy(true);
    try {
      await deleteMessage(deleting.id);
      toast.success(MESSAGES['message.deleted']);
      await queryClient.invalidateQueries({ queryKey: messageListQueryKey(box) });
    } catch {
      toast.error(MESSAGES['message.delete.error']);
    } finally {
      setIsBusy(false);
      setDeleting(null);
    }
  };

  const rows = list.data?.pages.flatMap((page) => page.messages) ?? [];
  return (
    <>
      <ItemListCard
        panelId="messaging"
        title={TITLE}
        addLabel={t('messaging.new')}
        onAdd={() => void navigate(PATHS.messagingNew)}
        isPending={list.isPending}
        errorText={list.isError ? MESSAGES['message.list.error'] : null}
        isEmpty={rows.length === 0}
        emptyText={t('messaging.empty')}
        listLabel={t(box === 'received' ? 'messaging.received' : 'messaging.sent')}
        beforeList={
          <Tabs
            value={box}
            onChange={(_, value: MessageBox) => setBox(value)}
            variant="fullWidth"
            sx={{ mb: 1 }}
          >
            <Tab value="received" label={t('messaging.received')} />
            <Tab value="sent" label={t('messaging.sent')} />
          </Tabs>
        }
        afterList={
          list.hasNextPage && (
            <Button size="small" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {t('messaging.more')}
            </Button>
          )
        }
      >
        {rows.map((message) => (
          <MessageRow
            key={message.id}
            message={message}
            box={box}
            onOpen={() => void navigate(pathTo(PATHS.messageById, { id: message.id }))}
            onDelete={() => setDeleting(message)}
          />
        ))}
      </ItemListCard>
      {deleting && (
        <ConfirmDialog
          title={t('messaging.delete.title')}
          text={t('messaging.delete.text', { subject: deleting.subject })}
          confirmLabel={t('messaging.delete.confirm')}
          isDestructive
          isBusy={isBusy}
          onConfirm={() => void remove()}
          onClose={() => setDeleting(null)}
        />
      )}
    </>
  );
}
