import type { ReactNode } from 'react';
import { Box, Paper, Stack, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { PageHeading } from './page-heading';

/**
 * The frame of the dataset and query wizards: the item's name and description, the steps (MUI
 * Stepper), the current step's content and its buttons (Cancel on the left, Back/Next/Save on the
 * right).
 */
export function WizardLayout({
  title,
  description,
  steps,
  activeStep,
  notice,
  children,
  leftActions,
  rightActions,
}: {
  title: string;
  description?: string;
  steps: readonly string[];
  activeStep: number;
  notice?: ReactNode;
  children: ReactNode;
  leftActions: ReactNode;
  rightActions: ReactNode;
}) {
  return (
    <Paper sx={{ p: 3 }}>
      <PageHeading>{title}</PageHeading>
      {description && (
        <Typography color="text.secondary" sx={{ mt: -1.5, mb: 2 }}>
          {description}
        </Typography>
      )}
      <Stepper activeStep={activeStep} sx={{ mb: 3 }}>
        {steps.map((label) => (
          <Step key={label}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {notice}
      <Box sx={{ minHeight: 160 }}>{children}</Box>
      <Stack direction="row" spacing={1} sx={{ mt: 3, justifyContent: 'space-between' }}>
        <Stack direction="row" spacing={1}>
          {leftActions}
        </Stack>
        <Stack direction="row" spacing={1}>
          {rightActions}
        </Stack>
      </Stack>
    </Paper>
  );
}
