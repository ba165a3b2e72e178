import { Fragment } from 'react';
import { Alert, Box, Button, CircularProgress, Divider, Paper, Stack } from '@mui/material';
import ReplyAll from '@mui/icons-material/ReplyAll';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, replyAllPrefill } from '@pagewright/shared';
import { PageHeading } from '../../../components/page-heading';
import { isApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { MESSAGE_THREAD_QUERY_KEY, readThread } from '../api/read-messages';
import { MessageView } from './message-view';

/**
 * /message/id/:id and /message/token/:token (data spec §2): the thread in one column, replies
 * first (newest first, each followed by a divider), the first message last. Works without a
 * session (an e-mailed link); the way back to the dashboard shows only with one.
 */
export function MessageViewerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id, token } = useParams();
  const { accessToken } = useSession();
  const by = token !== undefined ? { token } : { id: id ?? '' };
  const thread = useQuery({
    queryKey: [...MESSAGE_THREAD_QUERY_KEY, by],
    queryFn: () => readThread(by),
    retry: false,
  });

  const replyAll = () => {
    if (!thread.data) return;
    navigate(PATHS.messagingNew, { state: replyAllPrefill(thread.data.opened) });
  };

  return (
    <Box sx={{ maxWidth: 900, mx: 'auto' }}>
      <PageHeading>{thread.data?.messages.at(-1)?.subject ?? t('breadcrumb.message')}</PageHeading>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
        {accessToken !== null && (
          <Button variant="outlined" onClick={() => void navigate(PATHS.dashboard)}>
            {t('messaging.back')}
          </Button>
        )}
        <Button variant="contained" startIcon={<ReplyAll />} disabled={!thread.data} onClick={replyAll}>
          {t('messaging.reply.all')}
        </Button>
      </Stack>
      {thread.isPending && <CircularProgress aria-label={t('app.loading')} />}
      {thread.isError && (
        <Alert severity="error">
          {token !== undefined && isApiError(thread.error, 404)
            ? MESSAGES['error.invalid.token.parameter']
            : MESSAGES['message.list.error']}
        </Alert>
      )}
      {thread.data && (
        <Paper variant="outlined" sx={{ px: 3 }} aria-label={t('messaging.thread')}>
          {thread.data.messages.map((message, index) => (
            <Fragment key={message.id}>
              <MessageView message={message} linkToken={thread.data.linkToken} />
              {index < thread.data.messages.length - 1 && <Divider />}
            </Fragment>
          ))}
        </Paper>
      )}
    </Box>
  );
}
