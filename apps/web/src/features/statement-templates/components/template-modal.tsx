import { useCallback, useMemo, useState } from 'react';
import {
  Alert,
  AppBar,
  Box,
  Button,
  CircularProgress,
  Dialog,
  LinearProgress,
  Stack,
  Toolbar,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  MESSAGES,
  RECOGNITION_PDF_MAX_BYTES,
  formatMessage,
  type TemplateBox,
  type TemplateDto,
  type TemplateImageDto,
} from '@pagewright/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PdfDropZone } from '../../../components/pdf-drop-zone';
import { errorText } from '../../../lib/api-client';
import { useLiveEvents } from '../../../lib/live-events';
import { templateListQueryKey } from '../../../lib/template-list';
import { toast } from '../../../lib/toast';
import {
  deleteAllPages,
  deletePage,
  listBoxes,
  listTemplatePages,
  replaceBoxes,
  uploadSample,
} from '../api/template-pages';
import { AnnotationEditor, type AnnotationClass, type BoxRegion } from './annotation-editor';

/** The spec's image check interval: the pages list is asked again while a sample is drawn. */
const IMAGE_CHECK_INTERVAL_MS = 4000;

function toBox(region: BoxRegion, page: TemplateImageDto): TemplateBox {
  return {
    x: region.x,
    y: region.y,
    w: region.w,
    h: region.h,
    pixel_width: page.pixelWidth,
    pixel_height: page.pixelHeight,
    mapping_type: region.type,
    mapping_label: region.cls ?? '',
    anchor_text: region.anchorText,
  };
}

/**
 * A template's modal (data spec §2 'Template settings'): with no pages, the sample PDF's upload;
 * with pages, the annotation editor (select and create-box only), previous/next cycling through
 * the pages, delete this page or all, and Save, which replaces each changed page's boxes.
 */
export function TemplateModal({ template, onClose }: { template: TemplateDto; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [rendering, setRendering] = useState<{ page: number; pageCount: number } | null>(null);
  const pages = useQuery({
    queryKey: ['template-pages', template.id],
    queryFn: () => listTemplatePages(template.id),
    refetchInterval: (query) =>
      (query.state.data?.length ?? 0) === 0 || rendering ? IMAGE_CHECK_INTERVAL_MS : false,
  });
  const [index, setIndex] = useState(0);
  const [regions, setRegions] = useState<Record<string, BoxRegion[]>>({});
  const [changed, setChanged] = useState<Set<string>>(new Set());
  const [extraClasses, setExtraClasses] = useState<AnnotationClass[]>([]);
  const [confirm, setConfirm] = useState<'page' | 'all' | 'close' | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const list = pages.data ?? [];
  const page = list[Math.min(index, Math.max(0, list.length - 1))] ?? null;

  useLiveEvents(['template-render'], (event) => {
    if (event.templateId !== template.id) return;
    if (event.error) toast.error(formatMessage('template.image.unreadable', { reason: event.error }));
    setRendering(event.isDone ? null : { page: event.page, pageCount: event.pageCount });
    void pages.refetch();
  });

  // A page's boxes load when it is first shown; changes made on it stay until Save.
  const boxes = useQuery({
    queryKey: ['template-boxes', page?.id],
    queryFn: () => listBoxes(page?.id ?? ''),
    enabled: page !== null,
    staleTime: Infinity,
  });
  const loaded: BoxRegion[] | undefined = boxes.data?.map((box) => ({
    id: box.id,
    x: box.x,
    y: box.y,
    w: box.w,
    h: box.h,
    cls: box.mapping_label === 'EMPTY' ? null : box.mapping_label,
    type: box.mapping_type,
    anchorText: box.anchor_text,
    color: '',
  }));
  const shownRegions = page ? (regions[page.id] ?? loaded) : undefined;

  const classes = useMemo(() => {
    const found = new Map<string, AnnotationClass>();
    for (const pageRegions of [...Object.values(regions), loaded ?? []])
      for (const region of pageRegions)
        if (region.cls) found.set(region.cls, { label: region.cls, type: region.type });
    for (const cls of extraClasses) if (!found.has(cls.label)) found.set(cls.label, cls);
    return [...found.values()];
  }, [regions, loaded, extraClasses]);

  const onRegionsChange = useCallback(
    (next: BoxRegion[]) => {
      if (!page) return;
      setRegions((current) => ({ ...current, [page.id]: next }));
      setChanged((current) => new Set(current).add(page.id));
    },
    [page],
  );

  const upload = async (files: File[]) => {
    const [file] = files;
    if (!file) return;
    if (file.size > RECOGNITION_PDF_MAX_BYTES) {
      toast.error(formatMessage('template.image.too.large', { mb: RECOGNITION_PDF_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    try {
      const answer = await uploadSample(template.id, file);
      toast.info(answer.message);
      setRendering({ page: 0, pageCount: 0 });
    } catch (error) {
      toast.error(errorText(error) || MESSAGES['template.image.upload.error']);
    }
  };

  const removePages = async (which: 'page' | 'all') => {
    try {
      if (which === 'page' && page) await deletePage(page.id);
      else await deleteAllPages(template.id);
      toast.success(MESSAGES[which === 'page' ? 'template.image.deleted' : 'template.images.deleted']);
      setIndex(0);
      await pages.refetch();
      await queryClient.invalidateQueries({ queryKey: templateListQueryKey });
    } catch {
      toast.error(
        MESSAGES[which === 'page' ? 'template.image.delete.error' : 'template.images.delete.error'],
      );
    } finally {
      setConfirm(null);
    }
  };

  const save = async () => {
    const toSave = list.filter((candidate) => changed.has(candidate.id));
    if (toSave.some((candidate) => (regions[candidate.id] ?? []).some((region) => !region.cls))) {
      toast.error(MESSAGES['template.mapping.label.required']);
      return;
    }
    setIsSaving(true);
    try {
      for (const candidate of toSave) {
        await replaceBoxes(
          candidate.id,
          (regions[candidate.id] ?? []).map((region) => toBox(region, candidate)),
        );
      }
      toast.success(MESSAGES['template.mapping.added']);
      await queryClient.invalidateQueries({ queryKey: templateListQueryKey });
      onClose();
    } catch (error) {
      toast.error(errorText(error) || MESSAGES['template.mapping.add.error']);
      setIsSaving(false);
    }
  };

  /** Boxes or classes changed since the last Save: closing would lose them, so it asks first. */
  const hasUnsavedWork = changed.size > 0 || extraClasses.length > 0;
  const requestClose = () => (hasUnsavedWork ? setConfirm('close') : onClose());

  const cycle = (step: number) => {
    if (list.length === 0) return;
    setIndex((current) => (current + step + list.length) % list.length);
  };

  return (
    <Dialog
      open
      fullScreen
      // Esc is the editor's select-tool key (spec §2): it never closes the editor.
      onClose={(_event, reason) => {
        if (reason !== 'escapeKeyDown') requestClose();
      }}
      aria-labelledby="template-modal-title"
    >
      <AppBar position="relative" color="default" elevation={1}>
        <Toolbar sx={{ gap: 1 }}>
          <Typography id="template-modal-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            {template.templateName}
          </Typography>
          {list.length > 0 && (
            <>
              <Button color="error" onClick={() => setConfirm('page')}>
                {t('templates.page.delete')}
              </Button>
              <Button color="error" onClick={() => setConfirm('all')}>
                {t('templates.pages.delete')}
              </Button>
              <Button variant="contained" onClick={() => void save()} disabled={isSaving}>
                {t('templates.save')}
              </Button>
            </>
          )}
          <Button onClick={requestClose}>{t('templates.close')}</Button>
        </Toolbar>
      </AppBar>
      <Box sx={{ p: 2, flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        {pages.isPending && <CircularProgress aria-label={t('app.loading')} />}
        {pages.isError && <Alert severity="error">{MESSAGES['template.image.list.error']}</Alert>}
        {pages.isSuccess && list.length === 0 && (
          <Stack spacing={2} sx={{ maxWidth: 600, mx: 'auto', width: '100%' }}>
            {rendering ? (
              <Box data-testid="render-progress">
                <Typography>
                  {rendering.pageCount > 0
                    ? t('templates.preparing.page', { page: rendering.page, pageCount: rendering.pageCount })
                    : t('templates.preparing')}
                </Typography>
                <LinearProgress
                  variant={rendering.pageCount > 0 ? 'determinate' : 'indeterminate'}
                  value={rendering.pageCount > 0 ? (100 * rendering.page) / rendering.pageCount : 0}
                />
              </Box>
            ) : (
              <PdfDropZone
                label={t('templates.sample.drop')}
                maxFiles={1}
                onFiles={(files) => void upload(files)}
                onRefused={(text) => toast.error(text)}
                tooManyText={MESSAGES['template.image.one.file']}
                notPdfText={MESSAGES['template.image.not.pdf']}
              />
            )}
          </Stack>
        )}
        {page && shownRegions !== undefined && (
          <AnnotationEditor
            key={page.id}
            imageSrc={page.url}
            imageWidth={page.pixelWidth}
            imageHeight={page.pixelHeight}
            initialRegions={shownRegions}
            classes={classes}
            onClassesChange={(next) => setExtraClasses(next)}
            onRegionsChange={onRegionsChange}
            enabledTools={['select', 'create-box']}
            onPreviousPage={() => cycle(-1)}
            onNextPage={() => cycle(1)}
            pageLabel={t('templates.page.label', {
              pageNumber: page.pageNumber,
              position: list.indexOf(page) + 1,
              total: list.length,
            })}
          />
        )}
        {page && shownRegions === undefined && boxes.isError && (
          <Alert severity="error">{MESSAGES['template.mapping.list.error']}</Alert>
        )}
      </Box>
      {confirm === 'close' && (
        <ConfirmDialog
          title={t('templates.unsaved.title')}
          text={t('templates.unsaved.text')}
          confirmLabel={t('templates.unsaved.confirm')}
          isDestructive
          onConfirm={onClose}
          onClose={() => setConfirm(null)}
        />
      )}
      {(confirm === 'page' || confirm === 'all') && (
        <ConfirmDialog
          title={t(confirm === 'page' ? 'templates.page.delete' : 'templates.pages.delete')}
          text={t(confirm === 'page' ? 'templates.page.delete.text' : 'templates.pages.delete.text')}
          confirmLabel={t('templates.delete')}
          isDestructive
          onConfirm={() => void removePages(confirm)}
          onClose={() => setConfirm(null)}
        />
      )}
    </Dialog>
  );
}
