import type { ActionType } from '@pagewright/shared';

/**
 * Actions with nothing to fill in: the builder adds them at once (scrolls, history, END, mouse).
 * Kept apart from the action dialog, whose code loads only when a dialog first opens.
 */
const NO_DIALOG_TYPES: readonly ActionType[] = [
  'SCROLL_UP',
  'SCROLL_DOWN',
  'SCROLL_TOP',
  'SCROLL_BOTTOM',
  'GO_BACK',
  'GO_FORWARD',
  'END',
  'MOUSE_CLICK',
  'MOUSE_MOVE',
];

/** Whether an action type has fields to fill in (else the builder adds it without a dialog). */
export function needsActionDialog(type: ActionType): boolean {
  return !NO_DIALOG_TYPES.includes(type);
}
