import { useId, useState } from 'react';
import { Box, Card, CardActionArea, CardContent, Collapse, Typography } from '@mui/material';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from './change-password-form';

/**
 * The settings card. Its header is the button that opens and closes it; it starts open when the user
 * must change the password (need-password flag).
 */
export function ChangePasswordCard({ isInitiallyOpen }: { isInitiallyOpen: boolean }) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(isInitiallyOpen);
  const contentId = useId();
  return (
    <Card data-testid="change-password-card">
      {/* The accordion pattern: a heading that holds the toggle button. */}
      <Box component="h2" sx={{ m: 0 }}>
        <CardActionArea
          aria-expanded={isOpen}
          aria-controls={contentId}
          onClick={() => setIsOpen((open) => !open)}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', p: 2 }}>
            <Typography variant="h6" component="span">
              {t('settings.change.password')}
            </Typography>
            <ExpandMore
              aria-hidden
              sx={{ transform: isOpen ? 'rotate(180deg)' : 'none', transition: 'transform 150ms' }}
            />
          </Box>
        </CardActionArea>
      </Box>
      <Collapse in={isOpen} unmountOnExit id={contentId}>
        <CardContent sx={{ pt: 1 }}>
          <ChangePasswordForm />
        </CardContent>
      </Collapse>
    </Card>
  );
}
