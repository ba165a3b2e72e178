import { useEffect, useState } from 'react';
import { Alert, Button, CircularProgress } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { LabelColumnMappingRow, LabelColumnRow } from '@pagewright/shared';
import { WizardEnded, WizardLoading } from '../../../components/wizard-load-state';
import { WizardLayout } from '../../../components/wizard-layout';
import { ApiError, errorText } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { cancelDataset } from '../api/cancel-dataset';
import { editDataset } from '../api/edit-dataset';
import { getDatasetFieldList } from '../api/get-dataset-field-list';
import { getDatasetLabelColumns } from '../api/get-dataset-label-columns';
import { datasetListQueryKey } from '../api/list-datasets';
import { removeDatasetField } from '../api/remove-dataset-field';
import { saveDataset } from '../api/save-dataset';
import { selectLabelColumns } from '../api/select-label-columns';
import { setDatasetFields } from '../api/set-dataset-fields';
import { blankFieldRow, fieldInputsOf, fieldRowErrors, fieldRowsOf, type FieldRow } from '../field-rules';
import { keyOf, mergeMapping, rowKeyOf } from '../label-columns';
import { datasetWizardStateOf, type DatasetWizardState } from '../wizard-location';
import { FieldStep } from './field-step';
import { LabelColumnStep } from './label-column-step';
import { MappingStep } from './mapping-step';

type Step = 0 | 1 | 2;
type Load = { status: 'loading' } | { status: 'ready' } | { status: 'failed'; text: string };

/** A 400 on `fields.<n>.name` belongs under that row's name. */
function rowErrorOf(error: unknown, rows: readonly FieldRow[]): Map<string, string> | null {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.field) return null;
  const index = /^fields\.(\d+)\.name$/u.exec(error.field)?.[1];
  const row = index === undefined ? undefined : rows[Number(index)];
  return row ? new Map([[row.rowKey, error.message]]) : null;
}

/**
 * /dataset (data spec §2, §4): 1 fields, 2 labels and table columns, 3 check box mapping, then
 * Save; Cancel drops the draft. Every step works on the caller's draft on the server; a dataset
 * being edited opens it first. An F-Engine dataset starts at step 2; its step 1 shows its engine
 * entity's fields, read-only.
 */
export function DatasetWizardPage() {
  const location = useLocation();
  const [search] = useSearchParams();
  const wizard = datasetWizardStateOf(search, location.state);
  if (!wizard) return <Navigate to={PATHS.dashboard} replace />;
  return <DatasetWizard key={`${wizard.datasetId}:${String(wizard.isEdit)}`} initial={wizard} />;
}

function DatasetWizard({ initial }: { initial: DatasetWizardState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { datasetId } = initial;
  const [header, setHeader] = useState({
    type: initial.type,
    name: initial.name,
    description: initial.description,
  });
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [step, setStep] = useState<Step>(0);
  const [rows, setRows] = useState<FieldRow[]>([]);
  const [isSubmitted, setIsSubmitted] = useState(false);
  const [serverRowErrors, setServerRowErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [offered, setOffered] = useState<LabelColumnRow[]>([]);
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const [mapping, setMapping] = useState<LabelColumnMappingRow[]>([]);
  const [isBusy, setIsBusy] = useState(false);
  /** A save of a large dataset rewrites its table (minutes): the wizard says so while it waits. */
  const [isSaving, setIsSaving] = useState(false);

  // Editing opens the draft on the saved dataset; a new one (or a reload) takes up the draft's fields.
  useEffect(() => {
    let isCurrent = true;
    const opened = initial.isEdit
      ? editDataset(datasetId).then((edited) => {
          if (!isCurrent) return;
          setHeader({
            type: edited.datasetDto.type,
            name: edited.datasetDto.name,
            description: edited.datasetDto.description,
          });
          setRows(fieldRowsOf(edited.datasetFieldDtoList));
          setOffered(edited.labelTablesColumnsDto);
          setSelected(new Set(edited.labelTablesColumnsSelect.map(rowKeyOf)));
          // F-Engine datasets have their engine entity's fields: they start at step 2 (Back shows them).
          if (edited.datasetDto.type !== 'CUSTOM') setStep(1);
        })
      : getDatasetFieldList().then(async ({ datasetFieldDtoList }) => {
          if (!isCurrent) return;
          setRows(datasetFieldDtoList.length > 0 ? fieldRowsOf(datasetFieldDtoList) : [blankFieldRow()]);
          if (initial.type === 'CUSTOM') return;
          const columns = await getDatasetLabelColumns();
          if (!isCurrent) return;
          setOffered(columns.labelTablesColumnsDto);
          setSelected(new Set(columns.labelTablesColumnsSelect.map(rowKeyOf)));
          setStep(1);
        });
    opened.then(
      () => isCurrent && setLoad({ status: 'ready' }),
      (error: unknown) => isCurrent && setLoad({ status: 'failed', text: errorText(error) }),
    );
    return () => {
      isCurrent = false;
    };
  }, [datasetId, initial.isEdit, initial.type]);

  const ruleErrors = fieldRowErrors(rows);
  const shownRowErrors = new Map([...serverRowErrors, ...(isSubmitted ? ruleErrors.byRow : [])]);

  const run = async (work: () => Promise<void>) => {
    if (isBusy) return;
    setIsBusy(true);
    try {
      await work();
    } finally {
      setIsBusy(false);
    }
  };

  const changeRows = (next: FieldRow[]) => {
    setRows(next);
    setServerRowErrors(new Map());
  };

  const removeRow = (row: FieldRow) =>
    void run(async () => {
      if (row.datasetFieldId) {
        try {
          await removeDatasetField(datasetId, { datasetFieldId: row.datasetFieldId, name: row.name });
        } catch (error) {
          toast.error(errorText(error));
          return;
        }
      }
      setRows((current) => current.filter((candidate) => candidate.rowKey !== row.rowKey));
    });

  const fieldsNext = () =>
    void run(async () => {
      setIsSubmitted(true);
      if (!ruleErrors.canGoOn) {
        toast.error(t('dataset.next.step.error'));
        return;
      }
      try {
        const saved = await setDatasetFields({ fields: fieldInputsOf(rows) });
        // Keep the row keys (and so the focus) of rows that were there; saved fields get their ids.
        setRows(
          fieldRowsOf(saved.datasetFieldDtoList).map((field, index) => ({
            ...field,
            rowKey: rows[index]?.rowKey ?? field.rowKey,
          })),
        );
        const columns = await getDatasetLabelColumns();
        setOffered(columns.labelTablesColumnsDto);
        const offeredKeys = new Set(columns.labelTablesColumnsDto.map(rowKeyOf));
        setSelected((current) =>
          current === null
            ? new Set(columns.labelTablesColumnsSelect.map(rowKeyOf))
            : new Set([...current].filter((key) => offeredKeys.has(key))),
        );
        setStep(1);
      } catch (error) {
        const rowErrors = rowErrorOf(error, rows);
        if (rowErrors) setServerRowErrors(rowErrors);
        toast.error(
          error instanceof ApiError && error.status === 409 ? errorText(error) : t('dataset.next.step.error'),
        );
      }
    });

  const rowsNext = () =>
    void run(async () => {
      const chosen = offered.filter((row) => selected?.has(rowKeyOf(row)));
      if (chosen.length === 0) {
        toast.error(t('dataset.next.step.error'));
        return;
      }
      try {
        const answer = await selectLabelColumns(chosen.map(keyOf));
        setMapping((before) => mergeMapping(answer.labelAndTableColumnDtoList, before, rows));
        setStep(2);
      } catch (error) {
        toast.error(
          error instanceof ApiError && error.hasServerMessage
            ? errorText(error)
            : t('dataset.next.step.error'),
        );
      }
    });

  const save = () =>
    void run(async () => {
      if (!mapping.some((row) => row.checkBoxes.some((box) => box.checked))) {
        toast.error(t('dataset.map.none'));
        return;
      }
      setIsSaving(true);
      try {
        const saved = await saveDataset(datasetId, {
          rows: mapping.map((row) => ({ ...keyOf(row), checkBoxes: row.checkBoxes })),
        });
        toast.success(saved.message);
        void queryClient.invalidateQueries({ queryKey: datasetListQueryKey });
        navigate(PATHS.dashboard);
      } catch (error) {
        toast.error(errorText(error));
      } finally {
        setIsSaving(false);
      }
    });

  const cancel = () =>
    void run(async () => {
      try {
        await cancelDataset();
      } catch (error) {
        toast.error(errorText(error));
      }
      navigate(PATHS.dashboard);
    });

  const title = header.name || t('breadcrumb.dataset');
  const steps = [t('datasets.step.fields'), t('datasets.step.rows'), t('datasets.step.mapping')];

  if (load.status === 'loading') return <WizardLoading />;
  if (load.status === 'failed') return <WizardEnded text={load.text} />;

  const fieldNames = mapping[0]?.checkBoxes.map((box) => box.datasetFieldName) ?? rows.map((row) => row.name);
  const isEngineDataset = header.type !== 'CUSTOM';

  return (
    <WizardLayout
      title={title}
      description={header.description}
      steps={steps}
      activeStep={step}
      notice={
        isSaving && (
          <Alert severity="info" icon={<CircularProgress size={20} />} role="status" sx={{ mb: 2 }}>
            {t('datasets.saving')}
          </Alert>
        )
      }
      leftActions={
        <Button onClick={cancel} disabled={isBusy}>
          {t('extractors.cancel')}
        </Button>
      }
      rightActions={
        <>
          {step > 0 && (
            <Button onClick={() => setStep((step - 1) as Step)} disabled={isBusy}>
              {t('wizard.back')}
            </Button>
          )}
          {step === 0 && (
            <Button variant="contained" onClick={fieldsNext} disabled={isBusy}>
              {t('wizard.next')}
            </Button>
          )}
          {step === 1 && (
            <Button variant="contained" onClick={rowsNext} disabled={isBusy}>
              {t('wizard.next')}
            </Button>
          )}
          {step === 2 && (
            <Button variant="contained" onClick={save} disabled={isBusy}>
              {t('extractors.save')}
            </Button>
          )}
        </>
      }
    >
      {step === 0 && (
        <FieldStep
          rows={rows}
          errors={shownRowErrors}
          isReadOnly={isEngineDataset}
          onChange={changeRows}
          onRemove={removeRow}
        />
      )}
      {step === 1 && (
        <LabelColumnStep rows={offered} selected={selected ?? new Set()} onChange={setSelected} />
      )}
      {step === 2 && <MappingStep rows={mapping} fieldNames={fieldNames} onChange={setMapping} />}
    </WizardLayout>
  );
}
