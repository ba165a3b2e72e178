import {
  INSERTOR_LIST_FIRST_LOAD_DELAY_MS,
  NAVIGATOR_LIST_FIRST_LOAD_DELAY_MS,
  type ExtractorListItem,
} from '@pagewright/shared';
import { PATHS } from '../../lib/paths';

/**
 * What differs between the three dashboard lists: the type sent as `extractorType`, the panel
 * (DASHBOARD_PANELS id), the spec's message ids, where Add and Edit lead, whether runs start from
 * the menu, and the delay before the first load (spec §9).
 */
export const LIST_KINDS = {
  EXTRACTOR: {
    extractorType: 'EXTRACTOR',
    panelId: 'extractors',
    builderPath: PATHS.extractor,
    canExecute: true,
    hasViewerEmail: false,
    firstLoadDelayMs: 0,
    messages: {
      name: 'extractor.list.error.name',
      description: 'extractor.list.error.description',
      unique: 'extractor.list.error.unique',
      get: 'extractor.list.error.get',
    },
    labels: {
      add: 'extractors.add.extractor',
      create: 'extractors.create.extractor',
      rename: 'extractors.rename.extractor',
      delete: 'extractors.delete.extractor',
      deleted: 'extractors.deleted.extractor',
    },
  },
  INSERTOR: {
    extractorType: 'INSERTOR',
    panelId: 'insertors',
    builderPath: PATHS.insertor,
    canExecute: true,
    hasViewerEmail: false,
    firstLoadDelayMs: INSERTOR_LIST_FIRST_LOAD_DELAY_MS,
    messages: {
      name: 'insertor.list.error.name',
      description: 'insertor.list.error.description',
      unique: 'insertor.list.error.unique',
      get: 'insertor.list.error.get',
    },
    labels: {
      add: 'extractors.add.insertor',
      create: 'extractors.create.insertor',
      rename: 'extractors.rename.insertor',
      delete: 'extractors.delete.insertor',
      deleted: 'extractors.deleted.insertor',
    },
  },
  NAVIGATOR: {
    extractorType: 'NAVIGATOR',
    panelId: 'navigators',
    builderPath: PATHS.screenShareExecutor,
    canExecute: false,
    hasViewerEmail: true,
    firstLoadDelayMs: NAVIGATOR_LIST_FIRST_LOAD_DELAY_MS,
    messages: {
      name: 'navigator.list.error.name',
      description: 'navigator.list.error.description',
      unique: 'navigator.list.error.unique',
      get: 'navigator.list.error.get',
    },
    labels: {
      add: 'extractors.add.navigator',
      create: 'extractors.create.navigator',
      rename: 'extractors.rename.navigator',
      delete: 'extractors.delete.navigator',
      deleted: 'extractors.deleted.navigator',
    },
  },
} as const;

export type ListKindName = keyof typeof LIST_KINDS;
export type ListKind = (typeof LIST_KINDS)[ListKindName];

/**
 * Router state passed to the builder routes with `?id=`: the builder reads the id from either
 * (the query survives a reload, the state does not) and may show the rest before its own load.
 */
export interface BuilderRouteState {
  id: string;
  name: string;
  description: string;
  extractorType: ExtractorListItem['extractorType'];
  viewerEmail: string | null;
}

/** The builder route of an item, with `?id=` and the router state that go with it. */
export function builderLocation(kind: ListKind, item: BuilderRouteState) {
  const state: BuilderRouteState = {
    id: item.id,
    name: item.name,
    description: item.description,
    extractorType: item.extractorType,
    viewerEmail: item.viewerEmail,
  };
  return { to: `${kind.builderPath}?id=${encodeURIComponent(item.id)}`, state };
}
