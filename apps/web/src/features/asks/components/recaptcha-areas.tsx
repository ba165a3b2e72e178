import { useState } from 'react';
import { Box, ButtonBase, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PageElementArea } from '@pagewright/shared';
import { pictureUrl } from './ask-picture';

interface RecaptchaAreasProps {
  base64: string;
  areas: readonly PageElementArea[];
  isDisabled: boolean;
  onPick: (area: PageElementArea) => void;
}

/**
 * The reCAPTCHA widget's picture with its clickable areas drawn over it. Areas come in the
 * picture's pixel coordinates; they are placed in percent so the picture may be shown smaller.
 * Bigger areas are drawn first so that nested, smaller ones stay clickable on top of them.
 */
export function RecaptchaAreas({ base64, areas, isDisabled, onPick }: RecaptchaAreasProps) {
  const { t } = useTranslation();
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const shown = areas
    .filter((area) => area.width > 0 && area.height > 0)
    .sort((a, b) => b.width * b.height - a.width * a.height);

  return (
    <Box sx={{ position: 'relative', display: 'inline-block', maxWidth: '100%', lineHeight: 0 }}>
      <Box
        component="img"
        src={pictureUrl(base64)}
        alt={t('ask.picture.recaptcha')}
        onLoad={(event) =>
          setSize({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })
        }
        sx={{ display: 'block', maxWidth: '100%' }}
      />
      {size &&
        shown.map((area) => {
          const name = area.textContent.trim() || area.tagName.toLowerCase();
          return (
            <Tooltip key={area.id} title={name}>
              <ButtonBase
                aria-label={t('ask.recaptcha.area', { name })}
                disabled={isDisabled}
                onClick={() => onPick(area)}
                sx={{
                  position: 'absolute',
                  left: `${(area.x / size.width) * 100}%`,
                  top: `${(area.y / size.height) * 100}%`,
                  width: `${(area.width / size.width) * 100}%`,
                  height: `${(area.height / size.height) * 100}%`,
                  border: 2,
                  borderColor: 'primary.main',
                  borderRadius: 0.5,
                  '&:hover, &.Mui-focusVisible': { bgcolor: 'rgba(255, 152, 0, 0.25)' },
                }}
              />
            </Tooltip>
          );
        })}
    </Box>
  );
}
