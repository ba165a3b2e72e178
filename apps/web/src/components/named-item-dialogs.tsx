import { useState, type ReactNode } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { errorText } from '../lib/api-client';
import { toast } from '../lib/toast';
import { ConfirmDialog } from './confirm-dialog';
import type { NameDescription } from './name-description-fields';
import { RenameDialog } from './rename-dialog';

/** A dashboard item people rename and delete (datasets, queries, schedulers). */
export interface NamedItem {
  id: string;
  name: string;
  description: string;
}

type OpenDialog<T> = { kind: 'rename'; item: T } | { kind: 'delete'; item: T } | null;

/**
 * Rename and Delete of a dashboard panel's items: the dialogs, the calls, the toasts with the
 * server's texts, and the list (under `listQueryKey`) refreshed. A refused delete (an item still
 * in use) shows the server's reason and leaves the item listed.
 */
export function useNamedItemDialogs<T extends NamedItem>(options: {
  listQueryKey: QueryKey;
  renameTitle: string;
  /** The API's rename request schema: its texts are the ones shown. */
  renameSchema: z.ZodType;
  uniqueText: string;
  rename: (request: NameDescription & { id: string }) => Promise<{ message: string }>;
  deleteTitle: string;
  deleteText: (item: T) => string;
  remove: (id: string) => Promise<{ message: string }>;
}): {
  openRename: (item: T) => void;
  openDelete: (item: T) => void;
  reload: () => Promise<void>;
  dialogs: ReactNode;
} {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<OpenDialog<T>>(null);
  const [isDeleting, setIsDeleting] = useState(false);
  const reload = () => queryClient.invalidateQueries({ queryKey: options.listQueryKey });

  const rename = async (item: T, values: NameDescription) => {
    const renamed = await options.rename({ id: item.id, ...values });
    setDialog(null);
    toast.success(renamed.message);
    await reload();
  };

  const remove = async (item: T) => {
    setIsDeleting(true);
    try {
      const deleted = await options.remove(item.id);
      toast.success(deleted.message);
      queryClient.setQueryData<T[]>(options.listQueryKey, (current) =>
        current?.filter((row) => row.id !== item.id),
      );
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setIsDeleting(false);
      setDialog(null);
      void reload();
    }
  };

  const dialogs = (
    <>
      {dialog?.kind === 'rename' && (
        <RenameDialog
          title={options.renameTitle}
          initial={{ name: dialog.item.name, description: dialog.item.description }}
          schema={options.renameSchema}
          uniqueText={options.uniqueText}
          onSubmit={(values) => rename(dialog.item, values)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={options.deleteTitle}
          text={options.deleteText(dialog.item)}
          confirmLabel={t('extractors.delete')}
          isDestructive
          isBusy={isDeleting}
          onConfirm={() => void remove(dialog.item)}
          onClose={() => setDialog(null)}
        />
      )}
    </>
  );
  return {
    openRename: (item) => setDialog({ kind: 'rename', item }),
    openDelete: (item) => setDialog({ kind: 'delete', item }),
    reload,
    dialogs,
  };
}
