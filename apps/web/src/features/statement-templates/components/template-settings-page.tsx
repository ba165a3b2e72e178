import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  IconButton,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  Menu,
  MenuItem,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import MoreVert from '@mui/icons-material/MoreVert';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type TemplateDto } from '@pagewright/shared';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { PageHeading } from '../../../components/page-heading';
import { PATHS } from '../../../lib/paths';
import { templateListQueryKey, useTemplateList } from '../../../lib/template-list';
import { toast } from '../../../lib/toast';
import { copyTemplate, createTemplate, deleteTemplate, renameTemplate } from '../api/templates';
import { TemplateModal } from './template-modal';
import { TemplateNameDialog } from './template-name-dialog';

type Dialog =
  | { kind: 'add' }
  | { kind: 'rename'; template: TemplateDto }
  | { kind: 'delete'; template: TemplateDto }
  | null;

function TemplateRow({
  template,
  onOpen,
  onRename,
  onCopy,
  onDelete,
}: {
  template: TemplateDto;
  onOpen: () => void;
  onRename: () => void;
  onCopy: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <ListItem
      disablePadding
      aria-label={template.templateName}
      secondaryAction={
        <Stack direction="row">
          <IconButton
            aria-label={t('templates.menu.named', { name: template.templateName })}
            onClick={(event) => setAnchor(event.currentTarget)}
          >
            <MoreVert />
          </IconButton>
          <IconButton
            aria-label={t('templates.delete.named', { name: template.templateName })}
            onClick={onDelete}
          >
            <DeleteOutlined />
          </IconButton>
          <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
            <MenuItem onClick={() => (setAnchor(null), onRename())}>{t('templates.rename')}</MenuItem>
            <MenuItem onClick={() => (setAnchor(null), onCopy())}>{t('templates.copy')}</MenuItem>
          </Menu>
        </Stack>
      }
    >
      <ListItemButton onClick={onOpen}>
        <ListItemText
          primary={template.templateName}
          secondary={t('templates.summary', {
            pages: t('templates.pages', { count: template.pageCount }),
            boxes: t('templates.boxes', { count: template.mappingCount }),
          })}
        />
      </ListItemButton>
    </ListItem>
  );
}

/**
 * /statement-recognition-new/template-settings (data spec §2): the caller's templates; Add (then the
 * new template's editor opens), Rename and Copy from a row's menu, Delete after a confirmation;
 * a template opens in its modal (sample upload, or the annotation editor).
 */
export function TemplateSettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const templates = useTemplateList();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [opened, setOpened] = useState<TemplateDto | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: templateListQueryKey });

  const add = async (templateName: string) => {
    const created = await createTemplate(templateName);
    toast.success(MESSAGES['template.added']);
    setDialog(null);
    await reload();
    setOpened(created);
  };
  const rename = async (template: TemplateDto, templateName: string) => {
    await renameTemplate(template.id, templateName);
    toast.success(MESSAGES['template.renamed']);
    setDialog(null);
    await reload();
  };
  const copy = async (template: TemplateDto) => {
    try {
      await copyTemplate(template.id);
      toast.success(MESSAGES['template.copied']);
      await reload();
    } catch {
      toast.error(MESSAGES['template.copy.error']);
    }
  };
  const remove = async (template: TemplateDto) => {
    try {
      await deleteTemplate(template.id);
      toast.success(MESSAGES['template.deleted']);
      await reload();
    } catch {
      toast.error(MESSAGES['template.delete.error']);
    } finally {
      setDialog(null);
    }
  };

  const rows = templates.data ?? [];
  return (
    <Box sx={{ maxWidth: 800, mx: 'auto' }}>
      <Stack direction="row" sx={{ alignItems: 'center', mb: 2 }}>
        <Box sx={{ flex: 1 }}>
          <PageHeading>{t('templates.title')}</PageHeading>
        </Box>
        <Button
          startIcon={<Add />}
          variant="contained"
          onClick={() => setDialog({ kind: 'add' })}
          sx={{ mr: 1 }}
        >
          {t('templates.add')}
        </Button>
        <Button onClick={() => void navigate(PATHS.dashboard)}>{t('templates.close')}</Button>
      </Stack>
      <Paper variant="outlined">
        {templates.isPending && <CircularProgress aria-label={t('app.loading')} sx={{ m: 2 }} />}
        {templates.isError && <Alert severity="error">{MESSAGES['template.list.error']}</Alert>}
        {templates.isSuccess && rows.length === 0 && (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {t('templates.empty')}
          </Typography>
        )}
        {rows.length > 0 && (
          <List aria-label={t('templates.list')}>
            {rows.map((template) => (
              <TemplateRow
                key={template.id}
                template={template}
                onOpen={() => setOpened(template)}
                onRename={() => setDialog({ kind: 'rename', template })}
                onCopy={() => void copy(template)}
                onDelete={() => setDialog({ kind: 'delete', template })}
              />
            ))}
          </List>
        )}
      </Paper>
      {dialog?.kind === 'add' && (
        <TemplateNameDialog title={t('templates.add')} onSubmit={add} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'rename' && (
        <TemplateNameDialog
          title={t('templates.rename.title')}
          initialName={dialog.template.templateName}
          onSubmit={(name) => rename(dialog.template, name)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={t('templates.delete.title')}
          text={t('templates.delete.text', { name: dialog.template.templateName })}
          confirmLabel={t('templates.delete')}
          isDestructive
          onConfirm={() => void remove(dialog.template)}
          onClose={() => setDialog(null)}
        />
      )}
      {opened && (
        <TemplateModal
          template={opened}
          onClose={() => {
            setOpened(null);
            void reload();
          }}
        />
      )}
    </Box>
  );
}
