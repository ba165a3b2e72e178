import { useState } from 'react';
import { Box, ButtonBase } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PictureDialog } from '../../../components/picture-dialog';

/** A data: URL for the base64 picture an ask carries (JPEG or PNG, told apart by their magic bytes). */
export function pictureUrl(base64: string): string {
  const type = base64.startsWith('/9j/') ? 'image/jpeg' : 'image/png';
  return `data:${type};base64,${base64}`;
}

/** A picture of the page shown in the ask dialog; a click opens it at full size. */
export function AskPicture({ base64, alt }: { base64: string; alt: string }) {
  const { t } = useTranslation();
  const [isEnlarged, setIsEnlarged] = useState(false);
  const src = pictureUrl(base64);
  return (
    <>
      <ButtonBase
        onClick={() => setIsEnlarged(true)}
        aria-label={t('ask.picture.enlarge', { name: alt })}
        sx={{ display: 'block', border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}
      >
        <Box
          component="img"
          src={src}
          alt={alt}
          sx={{ display: 'block', maxWidth: '100%', maxHeight: 240 }}
        />
      </ButtonBase>
      {isEnlarged && <PictureDialog title={alt} src={src} onClose={() => setIsEnlarged(false)} />}
    </>
  );
}
