import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { QueryDataset, QueryDatasetField, QueryFieldDto } from '@pagewright/shared';
import { ApiError, errorText } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { toast } from '../../../lib/toast';
import { cancelQuery } from '../api/cancel-query';
import { chooseQueryDataset } from '../api/choose-query-dataset';
import { editQuery } from '../api/edit-query';
import { getQueryFieldStep } from '../api/get-query-field-step';
import { getQueryFilterStep } from '../api/get-query-filter-step';
import { listQueryDatasets } from '../api/list-query-datasets';
import { useQueryOperators } from '../api/list-query-operators';
import { queryListQueryKey } from '../api/list-queries';
import { removeQueryFilter } from '../api/remove-query-filter';
import { saveQuery } from '../api/save-query';
import { selectQueryFields } from '../api/select-query-fields';
import { setQueryFilters } from '../api/set-query-filters';
import { fieldChoicesOf, fieldSelectionOf, type FieldChoice } from '../field-choices';
import {
  filterInputsOf,
  filterRowsOf,
  missingOf,
  type FilterRow,
  type FilterRowErrors,
} from '../filter-rules';
import type { QueryWizardState } from '../wizard-location';

export type QueryStep = 0 | 1 | 2 | 3;
type Load = { status: 'loading' } | { status: 'ready' } | { status: 'failed'; text: string };

/** The step each way of opening starts at (data spec §2): Edit at 2, Execute at 3. */
const FIRST_STEP: Record<QueryWizardState['mode'], QueryStep> = { new: 0, edit: 1, execute: 2 };

/** A 400 on `filters.<n>.<part>` belongs to that filter row. */
function filterErrorOf(error: unknown, rows: readonly FilterRow[]): Map<string, FilterRowErrors> | null {
  if (!(error instanceof ApiError) || error.status !== 400 || !error.field) return null;
  const match = /^filters\.(\d+)\.(\w+)$/u.exec(error.field);
  const row = match ? rows[Number(match[1])] : undefined;
  if (!match || !row) return null;
  const part = match[2];
  const errors: FilterRowErrors =
    part === 'datasetFieldId'
      ? { field: true }
      : part === 'operatorId'
        ? { operator: true }
        : { value: error.message };
  return new Map([[row.rowKey, errors]]);
}

/**
 * The query wizard (data spec §2, §4) on the caller's draft: 1 dataset, 2 fields, 3 filters,
 * 4 result. Every step's data comes from the draft's own calls; Save writes the draft, Cancel drops it.
 */
export function useQueryWizard(initial: QueryWizardState) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const operators = useQueryOperators();
  const { queryId, mode } = initial;
  const [header, setHeader] = useState({ name: initial.name, description: initial.description });
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [step, setStep] = useState<QueryStep>(FIRST_STEP[mode]);
  const [isBusy, setIsBusy] = useState(false);

  const [datasets, setDatasets] = useState<QueryDataset[] | null>(null);
  const [chosenDatasetId, setChosenDatasetId] = useState<string | null>(null);
  const [datasetNotice, setDatasetNotice] = useState<string | null>(null);
  const [askNoData, setAskNoData] = useState<QueryDataset | null>(null);

  const [fields, setFields] = useState<QueryDatasetField[]>([]);
  const [columnOrder, setColumnOrder] = useState<QueryFieldDto[]>([]);
  const [choices, setChoices] = useState<Map<string, FieldChoice>>(new Map());
  const [fieldErrors, setFieldErrors] = useState<Map<string, string>>(new Map());
  const [fieldNotice, setFieldNotice] = useState<string | null>(null);

  const [filterFields, setFilterFields] = useState<QueryDatasetField[]>([]);
  const [filterRows, setFilterRows] = useState<FilterRow[]>([]);
  const [filterErrors, setFilterErrors] = useState<Map<string, FilterRowErrors>>(new Map());
  const [filterNotice, setFilterNotice] = useState<string | null>(null);

  const [revision, setRevision] = useState(0);

  // Each step loads what it shows from the draft as it is entered (stable: they use setters only).
  const enterDatasets = useCallback(async () => {
    setDatasets(await listQueryDatasets());
    setDatasetNotice(null);
    setStep(0);
  }, []);

  const enterFields = useCallback(async () => {
    const answer = await getQueryFieldStep();
    setFields(answer.datasetFieldList);
    setColumnOrder(answer.queryFieldList);
    setChoices(fieldChoicesOf(answer.datasetFieldList, answer.queryFieldList));
    setFieldErrors(new Map());
    setFieldNotice(null);
    setStep(1);
  }, []);

  const enterFilters = useCallback(async () => {
    const answer = await getQueryFilterStep();
    setFilterFields(answer.datasetFieldList);
    setFilterRows(filterRowsOf(answer.queryFilterList));
    setFilterErrors(new Map());
    setFilterNotice(null);
    setStep(2);
  }, []);

  const enterResult = () => {
    setRevision((current) => current + 1);
    setStep(3);
  };

  // A new query lists the datasets; Edit and Execute open the draft on the saved query first.
  useEffect(() => {
    let isCurrent = true;
    const opened =
      mode === 'new'
        ? listQueryDatasets().then((list) => {
            if (isCurrent) setDatasets(list);
          })
        : editQuery(queryId).then(async (edited) => {
            if (!isCurrent) return;
            setHeader({ name: edited.query.name, description: edited.query.description });
            setChosenDatasetId(edited.queryDataset?.id ?? null);
            if (!edited.queryDataset) await enterDatasets();
            else if (mode === 'edit') await enterFields();
            else await enterFilters();
          });
    opened.then(
      () => isCurrent && setLoad({ status: 'ready' }),
      (error: unknown) => isCurrent && setLoad({ status: 'failed', text: errorText(error) }),
    );
    return () => {
      isCurrent = false;
    };
  }, [mode, queryId, enterDatasets, enterFields, enterFilters]);

  /** Runs one step's calls; a failure shows the server's text. */
  const run = async (work: () => Promise<void>) => {
    if (isBusy) return;
    setIsBusy(true);
    try {
      await work();
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setIsBusy(false);
    }
  };

  const takeDataset = (dataset: QueryDataset) =>
    run(async () => {
      setAskNoData(null);
      // Engine datasets have fields like custom ones (their engine entity's): the same steps make a
      // FENGINE query over them (docs/decisions.md, issue 25).
      await chooseQueryDataset(dataset.id);
      await enterFields();
    });

  const datasetNext = () => {
    const dataset = datasets?.find((candidate) => candidate.id === chosenDatasetId);
    if (!dataset) {
      setDatasetNotice(t('query.dataset.required'));
      return;
    }
    if (!dataset.hasData) setAskNoData(dataset);
    else void takeDataset(dataset);
  };

  const fieldsNext = () => {
    const selection = fieldSelectionOf(fields, choices, columnOrder);
    setFieldErrors(selection.errors);
    setFieldNotice(selection.notice);
    if (selection.notice !== null || selection.errors.size > 0) return;
    void run(async () => {
      await selectQueryFields(selection.request);
      await enterFilters();
    });
  };

  const removeFilter = (row: FilterRow) =>
    void run(async () => {
      if (row.queryFilterId) await removeQueryFilter(row.queryFilterId);
      setFilterRows((current) => current.filter((candidate) => candidate.rowKey !== row.rowKey));
      setFilterErrors(new Map());
      setFilterNotice(null);
    });

  const filtersNext = () => {
    const list = operators.data ?? [];
    const errors = new Map<string, FilterRowErrors>();
    for (const row of filterRows) {
      const missing = missingOf(row, list);
      if (missing.field || missing.operator || missing.value)
        errors.set(row.rowKey, {
          field: missing.field,
          operator: missing.operator,
          value: missing.value ? t('query.all.fields.mandatory') : undefined,
        });
    }
    setFilterErrors(errors);
    if (errors.size > 0) {
      setFilterNotice(t('query.all.fields.mandatory'));
      return;
    }
    setFilterNotice(null);
    void run(async () => {
      try {
        const answer = await setQueryFilters(filterInputsOf(filterRows, list));
        setFilterRows((current) =>
          current.map((row, index) => ({
            ...row,
            queryFilterId: answer.queryFilterList[index]?.queryFilterId ?? row.queryFilterId,
          })),
        );
        enterResult();
      } catch (error) {
        const rowErrors = filterErrorOf(error, filterRows);
        if (!rowErrors) throw error;
        setFilterErrors(rowErrors);
        setFilterNotice(errorText(error));
      }
    });
  };

  const back = () =>
    void run(async () => {
      if (step === 1) await enterDatasets();
      else setStep((step - 1) as QueryStep);
    });

  const save = () =>
    void run(async () => {
      const saved = await saveQuery(queryId);
      toast.success(saved.message);
      void queryClient.invalidateQueries({ queryKey: queryListQueryKey });
      navigate(PATHS.dashboard);
    });

  const cancel = () =>
    void run(async () => {
      try {
        await cancelQuery();
      } finally {
        navigate(PATHS.dashboard);
      }
    });

  const minStep: QueryStep = mode === 'execute' ? 2 : 0;
  return {
    header,
    load,
    step,
    isBusy,
    canGoBack: step > minStep,
    // Save only on step 4, never when run from the dashboard.
    canSave: step === 3 && mode !== 'execute',
    isExecute: mode === 'execute',
    operators: operators.data ?? [],
    datasetStep: { datasets: datasets ?? [], chosenDatasetId, notice: datasetNotice },
    chooseDataset: (datasetId: string) => {
      setChosenDatasetId(datasetId);
      setDatasetNotice(null);
    },
    askNoData,
    confirmNoData: () => {
      if (askNoData) void takeDataset(askNoData);
    },
    dismissNoData: () => setAskNoData(null),
    fieldStep: { fields, choices, errors: fieldErrors, notice: fieldNotice },
    changeChoices: (next: Map<string, FieldChoice>) => {
      setChoices(next);
      setFieldErrors(new Map());
      setFieldNotice(null);
    },
    filterStep: { fields: filterFields, rows: filterRows, errors: filterErrors, notice: filterNotice },
    changeFilters: (rows: FilterRow[]) => {
      setFilterRows(rows);
      setFilterErrors(new Map());
      setFilterNotice(null);
    },
    removeFilter,
    revision,
    datasetNext,
    fieldsNext,
    filtersNext,
    back,
    save,
    cancel,
  };
}
