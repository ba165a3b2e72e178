import type { Dialog, Page } from 'playwright-core';
import { AutomationError } from './automation-error.js';
import { AUTOMATION_CODES } from './classify-error.js';

/** What the operator reads when the page asked something no step of the flow answers. */
export function unansweredDialogMessage(dialog: { type: string; message: string }): string {
  const asked = dialog.message.trim();
  if (dialog.type === 'beforeunload') return 'The page asked to confirm leaving it — no answer was recorded';
  return `The page asked: '${asked}' — no answer was recorded`;
}

export interface DialogWatch {
  /**
   * The first JavaScript dialog (alert, confirm, prompt, beforeunload) the page opened since the
   * last call, as the step's error (Unexpected Alert Open, 100026); the watch then starts over.
   */
  takeUnanswered(sequence?: number): AutomationError | undefined;
  stop(): void;
}

/**
 * Watches a page for JavaScript dialogs while a flow runs. Without a listener Playwright dismisses
 * them silently: a confirm('Place order?') answered "no" by nobody, the order never placed, and the
 * step reported SUCCESS. Every dialog is dismissed at once (the page must not hang on it) and fails
 * the step that raised it with the dialog's own text, so a run never says SUCCESS for work the
 * page refused to do.
 */
export function watchDialogs(page: Page): DialogWatch {
  let unanswered: { type: string; message: string } | undefined;
  const onDialog = (dialog: Dialog) => {
    unanswered ??= { type: dialog.type(), message: dialog.message() };
    // A page or browser closing under the dialog has nothing left to answer.
    dialog.dismiss().catch(() => undefined);
  };
  page.on('dialog', onDialog);
  return {
    takeUnanswered(sequence) {
      const dialog = unanswered;
      unanswered = undefined;
      if (!dialog) return undefined;
      return new AutomationError(
        AUTOMATION_CODES.UNEXPECTED_ALERT_OPEN,
        unansweredDialogMessage(dialog),
        sequence,
      );
    },
    stop() {
      page.off('dialog', onDialog);
    },
  };
}
