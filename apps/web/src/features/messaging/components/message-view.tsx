import { Box, Chip, Stack, Typography } from '@mui/material';
import AttachFile from '@mui/icons-material/AttachFile';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type MessageAttachment, type MessageDto } from '@pagewright/shared';
import { toast } from '../../../lib/toast';
import { downloadAttachment } from '../api/download-attachment';
import { messageDateText } from '../message-format';

function HeaderLine({ label, value }: { label: string; value: string }) {
  if (value === '') return null;
  return (
    <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
      <Box component="span" sx={{ fontWeight: 600, mr: 1 }}>
        {label}:
      </Box>
      {value}
    </Typography>
  );
}

/** One message of a thread: From, Sent, To (Cc and Bcc when there are any), Subject, files, body. */
export function MessageView({ message, linkToken }: { message: MessageDto; linkToken: string | null }) {
  const { t } = useTranslation();
  const download = async (file: MessageAttachment) => {
    try {
      await downloadAttachment(file.id, file.name, linkToken);
    } catch {
      toast.error(MESSAGES['message.attachment.error']);
    }
  };
  return (
    <Box component="article" data-testid="message" aria-label={message.subject} sx={{ py: 2 }}>
      <Stack spacing={0.5} sx={{ mb: 2 }}>
        <HeaderLine label={t('messaging.from')} value={message.from} />
        <HeaderLine label={t('messaging.sent.at')} value={messageDateText(message.datetime)} />
        <HeaderLine label={t('messaging.to')} value={message.to} />
        <HeaderLine label={t('messaging.cc')} value={message.cc} />
        <HeaderLine label={t('messaging.bcc')} value={message.bcc} />
        <HeaderLine label={t('messaging.subject')} value={message.subject} />
        {message.attachments.length > 0 && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {t('messaging.attachments')}:
            </Typography>
            {message.attachments.map((file) => (
              <Chip
                key={file.id}
                icon={<AttachFile />}
                label={file.name}
                onClick={() => void download(file)}
                variant="outlined"
                size="small"
              />
            ))}
          </Stack>
        )}
      </Stack>
      <Typography variant="body1" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {message.body}
      </Typography>
    </Box>
  );
}
