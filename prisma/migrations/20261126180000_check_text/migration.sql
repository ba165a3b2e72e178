-- Issue 22: a step that fails the run unless the page shows a text.
ALTER TYPE "ActionType" ADD VALUE 'CHECK_TEXT';
