import { Alert, Button } from '@mui/material';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { WizardEnded, WizardLoading } from '../../../components/wizard-load-state';
import { WizardLayout } from '../../../components/wizard-layout';
import { PATHS } from '../../../lib/paths';
import { useQueryWizard } from '../hooks/use-query-wizard';
import { queryWizardStateOf, type QueryWizardState } from '../wizard-location';
import { DatasetStep } from './dataset-step';
import { ExportButton } from './export-button';
import { FieldChoiceStep } from './field-choice-step';
import { FilterStep } from './filter-step';
import { ResultStep } from './result-step';

/** /Query (data spec §2): the query wizard, opened new, for Edit or for Execute. */
export function QueryWizardPage() {
  const location = useLocation();
  const [search] = useSearchParams();
  const wizard = queryWizardStateOf(search, location.state);
  if (!wizard) return <Navigate to={PATHS.dashboard} replace />;
  return <QueryWizard key={`${wizard.queryId}:${wizard.mode}`} initial={wizard} />;
}

function QueryWizard({ initial }: { initial: QueryWizardState }) {
  const { t } = useTranslation();
  const wizard = useQueryWizard(initial);
  const steps = [
    t('queries.step.dataset'),
    t('queries.step.fields'),
    t('queries.step.filters'),
    t('queries.step.result'),
  ];

  if (wizard.load.status === 'loading') return <WizardLoading />;
  if (wizard.load.status === 'failed') return <WizardEnded text={wizard.load.text} />;

  const next = [wizard.datasetNext, wizard.fieldsNext, wizard.filtersNext][wizard.step];
  return (
    <>
      <WizardLayout
        title={wizard.header.name || t('breadcrumb.query')}
        description={wizard.header.description}
        steps={steps}
        activeStep={wizard.step}
        notice={
          wizard.isExecute && (
            <Alert severity="info" sx={{ mb: 2 }}>
              {t('queries.executing')}
            </Alert>
          )
        }
        leftActions={
          <Button onClick={wizard.cancel} disabled={wizard.isBusy}>
            {t('extractors.cancel')}
          </Button>
        }
        rightActions={
          <>
            {wizard.step === 3 && <ExportButton queryName={wizard.header.name || t('breadcrumb.query')} />}
            {wizard.canGoBack && (
              <Button onClick={wizard.back} disabled={wizard.isBusy}>
                {t('wizard.back')}
              </Button>
            )}
            {next && (
              <Button variant="contained" onClick={next} disabled={wizard.isBusy}>
                {t('wizard.next')}
              </Button>
            )}
            {wizard.canSave && (
              <Button variant="contained" onClick={wizard.save} disabled={wizard.isBusy}>
                {t('extractors.save')}
              </Button>
            )}
          </>
        }
      >
        {wizard.step === 0 && (
          <DatasetStep
            datasets={wizard.datasetStep.datasets}
            chosenId={wizard.datasetStep.chosenDatasetId}
            notice={wizard.datasetStep.notice}
            onChoose={wizard.chooseDataset}
          />
        )}
        {wizard.step === 1 && (
          <FieldChoiceStep
            fields={wizard.fieldStep.fields}
            choices={wizard.fieldStep.choices}
            errors={wizard.fieldStep.errors}
            notice={wizard.fieldStep.notice}
            onChange={wizard.changeChoices}
          />
        )}
        {wizard.step === 2 && (
          <FilterStep
            fields={wizard.filterStep.fields}
            operators={wizard.operators}
            rows={wizard.filterStep.rows}
            errors={wizard.filterStep.errors}
            notice={wizard.filterStep.notice}
            onChange={wizard.changeFilters}
            onRemove={wizard.removeFilter}
          />
        )}
        {wizard.step === 3 && <ResultStep key={wizard.revision} revision={wizard.revision} />}
      </WizardLayout>
      {wizard.askNoData && (
        <ConfirmDialog
          title={t('queries.no.data.title')}
          text={t('query.dataset.no.data')}
          confirmLabel={t('queries.continue')}
          onConfirm={wizard.confirmNoData}
          onClose={wizard.dismissNoData}
        />
      )}
    </>
  );
}
