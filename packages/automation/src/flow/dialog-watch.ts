import type { Dialog, Page } from 'playwright-core';
import type { DialogAnswer, PageDialog, PageDialogAnswer, PageDialogType } from '@pagewright/shared';
import { AutomationError } from './automation-error.js';
import { AUTOMATION_CODES } from './classify-error.js';

/** What the operator reads when the page asked something no step of the flow answers. */
export function unansweredDialogMessage(dialog: { type: string; message: string }): string {
  const asked = dialog.message.trim();
  if (dialog.type === 'beforeunload') return 'The page asked to confirm leaving it — no answer was recorded';
  return `The page asked: '${asked}' — no answer was recorded`;
}

/** A recorded answer (an ANSWER_DIALOG step) waiting for the dialog it answers. */
export interface ArmedAnswer {
  sequence: number;
  answer: DialogAnswer;
}

export interface DialogWatchOptions {
  /**
   * Asks the operator, who sees the dialog over the builder's page view (recording). Undefined
   * means nobody answered: the dialog is dismissed and fails the step like an unrecorded one.
   */
  askOperator?: ((dialog: PageDialog) => Promise<DialogAnswer | undefined>) | undefined;
}

export interface DialogWatch {
  /**
   * The recorded answers of the ANSWER_DIALOG steps that follow the step about to run: the dialogs
   * it raises are answered with them, in order. Replaces answers armed for an earlier step.
   */
  arm(answers: readonly ArmedAnswer[]): void;
  /**
   * The dialog an ANSWER_DIALOG step's answer was given to, waiting up to timeoutMs for the page
   * to open it (a confirm() may follow a fetch the click started). Undefined when none opened.
   */
  answered(armed: ArmedAnswer, timeoutMs: number): Promise<PageDialog | undefined>;
  /** The dialogs the operator answered since the last call, in the order the page opened them. */
  takeOperatorAnswers(): PageDialogAnswer[];
  /**
   * The first JavaScript dialog (alert, confirm, prompt, beforeunload) the page opened since the
   * last call that nobody answered, as the step's error (Unexpected Alert Open, 100026).
   */
  takeUnanswered(sequence?: number): AutomationError | undefined;
  stop(): void;
}

interface Armed extends ArmedAnswer {
  seen?: PageDialog;
  resolve: (dialog: PageDialog) => void;
  opened: Promise<PageDialog>;
}

function armed(entry: ArmedAnswer): Armed {
  let resolve: (dialog: PageDialog) => void = () => undefined;
  const opened = new Promise<PageDialog>((done) => (resolve = done));
  return { ...entry, resolve, opened };
}

function seenOf(dialog: Dialog): PageDialog {
  const type = dialog.type() as PageDialogType;
  return {
    type,
    message: dialog.message(),
    ...(type === 'prompt' ? { defaultValue: dialog.defaultValue() } : {}),
  };
}

/** Gives a dialog its answer; a page or browser closing under it has nothing left to answer. */
function respond(dialog: Dialog, answer: DialogAnswer): void {
  const given = answer.accept
    ? dialog.accept(dialog.type() === 'prompt' ? (answer.promptText ?? '') : undefined)
    : dialog.dismiss();
  given.catch(() => undefined);
}

/**
 * Watches a page for JavaScript dialogs while a flow runs. Without a listener Playwright dismisses
 * them silently: a confirm('Place order?') answered "no" by nobody, the order never placed, and the
 * step reported SUCCESS. A dialog is answered by the recorded ANSWER_DIALOG steps that follow the
 * step raising it, or by the operator while recording; any other is dismissed at once (the page
 * must not hang on it) and fails the step that raised it with the dialog's own text.
 */
export function watchDialogs(page: Page, options: DialogWatchOptions = {}): DialogWatch {
  let unanswered: PageDialog | undefined;
  let answers: Armed[] = [];
  let operatorAnswers: PageDialogAnswer[] = [];
  let isStopped = false;

  const onDialog = (dialog: Dialog) => {
    const seen = seenOf(dialog);
    const recorded = answers.find((entry) => !entry.seen);
    if (recorded) {
      recorded.seen = seen;
      respond(dialog, recorded.answer);
      recorded.resolve(seen);
      return;
    }
    if (options.askOperator && !isStopped) {
      options.askOperator(seen).then(
        (answer) => {
          if (answer) {
            operatorAnswers.push({ ...seen, ...answer });
            respond(dialog, answer);
          } else {
            unanswered ??= seen;
            respond(dialog, { accept: false });
          }
        },
        () => {
          unanswered ??= seen;
          respond(dialog, { accept: false });
        },
      );
      return;
    }
    unanswered ??= seen;
    respond(dialog, { accept: false });
  };
  page.on('dialog', onDialog);

  return {
    arm(entries) {
      answers = entries.map(armed);
    },
    async answered(entry, timeoutMs) {
      let found = answers.find((candidate) => candidate.sequence === entry.sequence);
      if (!found) {
        // Reached by a jump, not from the step that raises its dialog: it answers the next one.
        found = armed(entry);
        answers.push(found);
      }
      if (found.seen) return found.seen;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs);
      });
      const seen = await Promise.race([found.opened, late]);
      clearTimeout(timer);
      // An answer whose dialog never came must not answer a later, different one.
      if (!seen) answers = answers.filter((candidate) => candidate !== found);
      return seen;
    },
    takeOperatorAnswers() {
      const taken = operatorAnswers;
      operatorAnswers = [];
      return taken;
    },
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
      isStopped = true;
      page.off('dialog', onDialog);
    },
  };
}
