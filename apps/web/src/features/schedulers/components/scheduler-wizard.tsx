import { useEffect, useState } from 'react';
import { Alert, Button } from '@mui/material';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type SchedulerExtractor } from '@pagewright/shared';
import { WizardEnded, WizardLoading } from '../../../components/wizard-load-state';
import { WizardLayout } from '../../../components/wizard-layout';
import { ApiError, errorText } from '../../../lib/api-client';
import { extractorListQueryKey, listExtractors } from '../../../lib/extractor-list';
import { PATHS } from '../../../lib/paths';
import { browserTimeZone } from '../../../lib/time-zone';
import { toast } from '../../../lib/toast';
import { getScheduler } from '../api/get-scheduler';
import { useSchedulerTimeZones } from '../api/get-scheduler-time-zones';
import { schedulerListQueryKey } from '../api/list-schedulers';
import { saveScheduler } from '../api/save-scheduler';
import { timetableErrors, timetableFormOf, timetableRequestOf, type TimetableForm } from '../timetable-form';
import { newSchedulerLocation, schedulerWizardStateOf, type SchedulerWizardState } from '../wizard-location';
import { ExtractorStep, SCHEDULABLE_KINDS } from './extractor-step';
import { FrequencyStep } from './frequency-step';

type Step = 0 | 1;
type Load = { status: 'loading' } | { status: 'ready' } | { status: 'failed'; text: string };

/**
 * /Scheduler (data spec §2, §4): 1 frequency, 2 extractors, then Save (PUT, which creates or
 * replaces). Opened from /scheduler-extractor with the name and description, or from the dashboard's
 * Edit with `?schedulerId=` (the saved values load first).
 */
export function SchedulerWizardPage() {
  const location = useLocation();
  const [search] = useSearchParams();
  const wizard = schedulerWizardStateOf(search, location.state);
  if (!wizard) return <Navigate to={PATHS.schedulerNew} replace />;
  return <SchedulerWizard key={wizard.schedulerId ?? 'new'} initial={wizard} />;
}

/** The caller's extractors and insertors, in the order the dashboard lists them. */
function useSchedulableExtractors() {
  return useQueries({
    queries: SCHEDULABLE_KINDS.map((kind) => ({
      queryKey: extractorListQueryKey(kind),
      queryFn: () => listExtractors(kind),
      staleTime: 0,
    })),
    combine: (results) => ({
      extractors: results.flatMap((result) =>
        (result.data ?? []).map(({ id, name, extractorType }): SchedulerExtractor => ({
          id,
          name,
          extractorType,
        })),
      ),
      isPending: results.some((result) => result.isPending),
      error: results.find((result) => result.isError)?.error ?? null,
    }),
  });
}

function SchedulerWizard({ initial }: { initial: SchedulerWizardState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { schedulerId } = initial;
  const [header, setHeader] = useState({ name: initial.name, description: initial.description });
  const [load, setLoad] = useState<Load>(schedulerId ? { status: 'loading' } : { status: 'ready' });
  const [step, setStep] = useState<Step>(0);
  const [form, setForm] = useState<TimetableForm>(() => timetableFormOf(null, browserTimeZone()));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [isSubmitted, setIsSubmitted] = useState({ frequency: false, extractors: false });
  const [conflict, setConflict] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const timeZones = useSchedulerTimeZones();
  const schedulable = useSchedulableExtractors();

  // Edit starts from the saved scheduler (name and description too: the address may be all there is).
  useEffect(() => {
    if (!schedulerId) return;
    let isCurrent = true;
    getScheduler(schedulerId).then(
      (saved) => {
        if (!isCurrent) return;
        setHeader({ name: saved.name, description: saved.description });
        setForm(timetableFormOf(saved, saved.timeZone));
        setSelected(new Set(saved.extractorIds));
        setLoad({ status: 'ready' });
      },
      (error: unknown) => isCurrent && setLoad({ status: 'failed', text: errorText(error) }),
    );
    return () => {
      isCurrent = false;
    };
  }, [schedulerId]);

  const frequencyErrors = isSubmitted.frequency ? timetableErrors(form) : {};
  const chosenIds = schedulable.extractors
    .filter((extractor) => selected.has(extractor.id))
    .map((extractor) => extractor.id);
  const extractorError =
    isSubmitted.extractors && chosenIds.length === 0 ? MESSAGES['scheduler.extractors.required'] : undefined;

  const next = () => {
    setIsSubmitted((current) => ({ ...current, frequency: true }));
    if (Object.keys(timetableErrors(form)).length === 0) setStep(1);
  };

  const back = () => {
    if (step === 1) setStep(0);
    else if (!schedulerId) {
      const location = newSchedulerLocation(header);
      navigate(location.to, { state: location.state });
    }
  };

  const save = async () => {
    setIsSubmitted((current) => ({ ...current, extractors: true }));
    const { scheduleType } = form;
    if (chosenIds.length === 0 || scheduleType === null || isSaving) return;
    setIsSaving(true);
    setConflict(null);
    try {
      const saved = await saveScheduler({
        id: schedulerId,
        name: header.name,
        description: header.description,
        extractorIds: chosenIds,
        ...timetableRequestOf({ ...form, scheduleType }),
      });
      toast.success(saved.message);
      void queryClient.invalidateQueries({ queryKey: schedulerListQueryKey });
      navigate(PATHS.dashboard);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setConflict(errorText(error));
      toast.error(
        error instanceof ApiError && error.hasServerMessage
          ? error.message
          : MESSAGES['scheduler.save.error'],
      );
    } finally {
      setIsSaving(false);
    }
  };

  if (load.status === 'loading' || (step === 1 && schedulable.isPending)) return <WizardLoading />;
  if (load.status === 'failed') return <WizardEnded text={load.text} />;

  const notice = (conflict ?? schedulable.error ?? timeZones.error) && (
    <Alert severity="error" sx={{ mb: 2 }}>
      {conflict ?? (schedulable.error ? errorText(schedulable.error) : MESSAGES['scheduler.timezone.error'])}
    </Alert>
  );

  return (
    <WizardLayout
      title={header.name || t('breadcrumb.scheduler')}
      description={header.description}
      steps={[t('schedulers.step.frequency'), t('schedulers.step.extractors')]}
      activeStep={step}
      notice={notice}
      leftActions={
        <Button onClick={() => void navigate(PATHS.dashboard)} disabled={isSaving}>
          {t('extractors.cancel')}
        </Button>
      }
      rightActions={
        <>
          {(step === 1 || !schedulerId) && (
            <Button onClick={back} disabled={isSaving}>
              {t('wizard.back')}
            </Button>
          )}
          {step === 0 ? (
            <Button variant="contained" onClick={next}>
              {t('wizard.next')}
            </Button>
          ) : (
            <Button variant="contained" onClick={() => void save()} disabled={isSaving}>
              {t('extractors.save')}
            </Button>
          )}
        </>
      }
    >
      {step === 0 ? (
        <FrequencyStep
          form={form}
          errors={frequencyErrors}
          timeZones={timeZones.data?.timeZones ?? []}
          onChange={setForm}
        />
      ) : (
        <ExtractorStep
          extractors={schedulable.extractors}
          selected={selected}
          error={extractorError}
          onChange={setSelected}
        />
      )}
    </WizardLayout>
  );
}
