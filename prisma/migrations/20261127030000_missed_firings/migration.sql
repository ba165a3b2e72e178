-- Issue 24: a firing that did not happen because Redis lost its job scheduler is recorded as missed.
ALTER TYPE "SchedulerFiringOutcome" ADD VALUE 'MISSED';
