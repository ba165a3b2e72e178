import type { DatasetType } from '@pagewright/shared';
import { PATHS } from '../../lib/paths';

/**
 * What /dataset is opened with (data spec §2): the dataset's id, type, name and description, and
 * whether it edits a saved dataset. `?datasetId=` (and `&edit=1`) survive a reload, the router
 * state does not.
 */
export interface DatasetWizardState {
  datasetId: string;
  type: DatasetType;
  name: string;
  description: string;
  isEdit: boolean;
}

export function datasetWizardLocation(state: DatasetWizardState) {
  const search = new URLSearchParams({ datasetId: state.datasetId });
  if (state.isEdit) search.set('edit', '1');
  return { to: `${PATHS.dataset}?${search.toString()}`, state };
}

/** The wizard's state from the address and the router state (which may be gone after a reload). */
export function datasetWizardStateOf(
  search: URLSearchParams,
  routerState: unknown,
): DatasetWizardState | null {
  const datasetId = search.get('datasetId');
  if (!datasetId) return null;
  const passed =
    typeof routerState === 'object' && routerState !== null
      ? (routerState as Partial<DatasetWizardState>)
      : {};
  const isPassedHere = passed.datasetId === datasetId;
  return {
    datasetId,
    type: (isPassedHere && passed.type) || 'CUSTOM',
    name: (isPassedHere && passed.name) || '',
    description: (isPassedHere && passed.description) || '',
    isEdit: search.get('edit') === '1',
  };
}
