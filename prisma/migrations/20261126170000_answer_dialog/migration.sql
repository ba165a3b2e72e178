-- Issue 22: the answer to a JavaScript dialog is a recorded action of its own.
ALTER TYPE "ActionType" ADD VALUE 'ANSWER_DIALOG';
