import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from './dialog-frame';

export interface InvestorDialogProps {
  open: boolean;
  onCancel(): void;
}

/**
 * ASK_F_ENGINE_INVESTOR's investor selection. Investors come from the financial-services engine
 * (managementDTO), which Pagewright does not connect to yet: until it does there is nobody to pick,
 * so the dialog says what the spec says for an ask without investors.
 */
export function InvestorDialog({ open, onCancel }: InvestorDialogProps) {
  const { t } = useTranslation();
  if (!open) return null;
  return (
    <DialogFrame
      open
      title={t('dialogs.investor.title')}
      onCancel={onCancel}
      onSubmit={onCancel}
      hasConfirm={false}
      maxWidth="xs"
    >
      <Alert severity="info">{t('extractor.investor.sign.in')}</Alert>
    </DialogFrame>
  );
}
