import { useRef, useState, type DragEvent } from 'react';
import { Box, Button, Typography } from '@mui/material';
import UploadFile from '@mui/icons-material/UploadFile';
import { useTranslation } from 'react-i18next';
import { looksLikePdf } from '@pagewright/shared';

/** The first bytes of a file (enough to see whether it is a PDF). */
function headOf(file: File): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file.slice(0, 1024));
  });
}

/**
 * A drop zone (and a button) for PDF files: files whose bytes are not a PDF, or more than
 * `maxFiles`, are refused with `onRefused` and the texts given; the rest go to `onFiles`.
 */
export function PdfDropZone({
  label,
  maxFiles,
  onFiles,
  onRefused,
  tooManyText,
  notPdfText,
}: {
  label: string;
  maxFiles: number;
  onFiles: (files: File[]) => void;
  onRefused: (text: string) => void;
  tooManyText: string;
  notPdfText: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [isOver, setIsOver] = useState(false);

  const take = async (chosen: File[]) => {
    if (chosen.length === 0) return;
    if (chosen.length > maxFiles) {
      onRefused(tooManyText);
      return;
    }
    const heads = await Promise.all(chosen.map(headOf));
    if (heads.some((head) => !looksLikePdf(head))) {
      onRefused(notPdfText);
      return;
    }
    onFiles(chosen);
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setIsOver(false);
    void take([...event.dataTransfer.files]);
  };

  return (
    <Box
      data-testid="pdf-drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setIsOver(true);
      }}
      onDragLeave={() => setIsOver(false)}
      onDrop={drop}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: isOver ? 'primary.main' : 'divider',
        borderRadius: 1,
        p: 3,
        textAlign: 'center',
        bgcolor: isOver ? 'action.hover' : 'transparent',
      }}
    >
      <UploadFile color="action" sx={{ fontSize: 40 }} />
      <Typography sx={{ mb: 1 }}>{label}</Typography>
      <Button variant="outlined" onClick={() => input.current?.click()}>
        {t('pdf.choose')}
      </Button>
      <input
        ref={input}
        type="file"
        accept="application/pdf,.pdf"
        multiple={maxFiles > 1}
        hidden
        data-testid="pdf-input"
        onChange={(event) => {
          const chosen = [...(event.target.files ?? [])];
          event.target.value = '';
          void take(chosen);
        }}
      />
    </Box>
  );
}
