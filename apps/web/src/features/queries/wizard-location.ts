import { PATHS } from '../../lib/paths';

/**
 * How /Query is opened (data spec §2, §4): a new query starts at step 1, Edit at step 2, Execute
 * (from the dashboard) at step 3 and never offers Save.
 */
export type QueryWizardMode = 'new' | 'edit' | 'execute';

export interface QueryWizardState {
  queryId: string;
  name: string;
  description: string;
  mode: QueryWizardMode;
}

const MODES: readonly QueryWizardMode[] = ['new', 'edit', 'execute'];

/** `?queryId=&mode=` survive a reload, the router state (name and description) does not. */
export function queryWizardLocation(state: QueryWizardState) {
  const search = new URLSearchParams({ queryId: state.queryId, mode: state.mode });
  return { to: `${PATHS.query}?${search.toString()}`, state };
}

export function queryWizardStateOf(search: URLSearchParams, routerState: unknown): QueryWizardState | null {
  const queryId = search.get('queryId');
  if (!queryId) return null;
  const mode = MODES.find((candidate) => candidate === search.get('mode')) ?? 'new';
  const passed =
    typeof routerState === 'object' && routerState !== null ? (routerState as Partial<QueryWizardState>) : {};
  const isPassedHere = passed.queryId === queryId;
  return {
    queryId,
    mode,
    name: (isPassedHere && passed.name) || '',
    description: (isPassedHere && passed.description) || '',
  };
}
