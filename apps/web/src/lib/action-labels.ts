import type { TFunction } from 'i18next';
import type { ActionType } from '@pagewright/shared';

/** An action type as the builder titles its cards ("Get table"). */
export function actionTitle(type: ActionType, t: TFunction): string {
  return t(`dialogs.action.type.${type}`);
}

/**
 * An action as people know it: its own label, else the builder card's title and step number
 * ("Get table (70)"), never the raw type.
 */
export function actionNameOf(
  action: { label: string | null; type: ActionType; sequence: number },
  t: TFunction,
): string {
  return (
    action.label || t('action.unnamed', { type: actionTitle(action.type, t), sequence: action.sequence })
  );
}
