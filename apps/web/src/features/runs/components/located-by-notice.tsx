import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button } from '@mui/material';
import type { ElementLocatedBy, FallbackLocator } from '@pagewright/shared';
import { errorText } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { adoptLocator } from '../api/adopt-locator';

/** A fallback as a person reads it: `button "Sign in"`, `label "Username"`, `test id "login"`. */
function fallbackText(fallback: FallbackLocator): string {
  switch (fallback.kind) {
    case 'role':
      return `${fallback.role} "${fallback.name}"`;
    case 'label':
      return `label "${fallback.value}"`;
    case 'text':
      return `text "${fallback.value}"`;
    case 'testId':
      return `test id "${fallback.value}"`;
    case 'id':
      return `id "${fallback.value}"`;
    case 'attributes':
      return 'its attributes';
    case 'css':
    case 'xpath':
      return fallback.value;
  }
}

/**
 * A step whose recorded selector no longer matched, found by a fallback (issue 22): the run says
 * so, and one click makes the selector the element has now the step's own.
 */
export function LocatedByNotice({
  runId,
  sequence,
  locatedBy,
}: {
  runId: string;
  sequence: number;
  locatedBy: ElementLocatedBy;
}) {
  const { t } = useTranslation();
  const [isAdopted, setAdopted] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const adopt = async () => {
    setSaving(true);
    try {
      toast.success((await adoptLocator(runId, sequence)).message);
      setAdopted(true);
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Alert
      severity="warning"
      sx={{ py: 0 }}
      action={
        !isAdopted && (
          <Button color="inherit" size="small" disabled={isSaving} onClick={() => void adopt()}>
            {t('runs.step.locator.adopt')}
          </Button>
        )
      }
    >
      {t(isAdopted ? 'runs.step.locator.adopted' : 'runs.step.locator.fallback', {
        fallback: fallbackText(locatedBy.fallback),
        selector: locatedBy.selectorValue,
      })}
    </Alert>
  );
}
