import type { NameDescription } from '../../components/name-description-fields';
import { PATHS } from '../../lib/paths';

/**
 * What /Scheduler is opened with (data spec §2): the name and description typed on
 * /scheduler-extractor, and the id of a saved scheduler being edited. Nothing is stored before
 * Save, so only an edit (`?schedulerId=`) survives a reload; a new one goes back to its first page.
 */
export interface SchedulerWizardState extends NameDescription {
  schedulerId: string | null;
}

export function schedulerWizardLocation(state: SchedulerWizardState) {
  const to = state.schedulerId
    ? `${PATHS.schedulerWizard}?${new URLSearchParams({ schedulerId: state.schedulerId }).toString()}`
    : PATHS.schedulerWizard;
  return { to, state };
}

function passedState(routerState: unknown): Partial<SchedulerWizardState> {
  return typeof routerState === 'object' && routerState !== null ? routerState : {};
}

/** The wizard's state from the address and the router state (gone after a reload). */
export function schedulerWizardStateOf(
  search: URLSearchParams,
  routerState: unknown,
): SchedulerWizardState | null {
  const passed = passedState(routerState);
  const schedulerId = search.get('schedulerId');
  if (schedulerId) {
    const isPassedHere = passed.schedulerId === schedulerId;
    return {
      schedulerId,
      name: (isPassedHere && passed.name) || '',
      description: (isPassedHere && passed.description) || '',
    };
  }
  if (!passed.name || passed.schedulerId) return null;
  return { schedulerId: null, name: passed.name, description: passed.description ?? '' };
}

/** Back from the wizard's first step of a new scheduler: its first page, with what was typed. */
export function newSchedulerLocation(values: NameDescription) {
  return { to: PATHS.schedulerNew, state: values };
}

/** The name and description a new-scheduler page starts with (coming back from the wizard). */
export function newSchedulerValuesOf(routerState: unknown): NameDescription | undefined {
  const passed = passedState(routerState);
  return typeof passed.name === 'string' && typeof passed.description === 'string'
    ? { name: passed.name, description: passed.description }
    : undefined;
}
