import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, renameSchedulerRequestSchema } from '@pagewright/shared';
import { useNameDescriptionForm } from '../../../components/name-description-fields';
import { NameDescriptionPage } from '../../../components/name-description-page';
import { useSchedulerList } from '../api/list-schedulers';
import { newSchedulerValuesOf, schedulerWizardLocation } from '../wizard-location';

const nameDescriptionSchema = renameSchedulerRequestSchema.pick({ name: true, description: true });

/**
 * /scheduler-extractor (data spec §2): name and description, then the wizard on /Scheduler. The API
 * stores a scheduler only at the wizard's Save, so a used name is caught here against the caller's
 * list (and again by Save's 409).
 */
export function NewSchedulerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const schedulers = useSchedulerList();
  const form = useNameDescriptionForm({
    schema: nameDescriptionSchema,
    uniqueText: MESSAGES['scheduler.list.error.unique'],
    initial: newSchedulerValuesOf(location.state),
    isNameTaken: (name) => (schedulers.data ?? []).some((scheduler) => scheduler.name === name),
  });

  return (
    <NameDescriptionPage
      title={t('page.scheduler.new')}
      form={form}
      submitLabel={t('wizard.next')}
      onCreate={async (values) => {
        const wizard = schedulerWizardLocation({ schedulerId: null, ...values });
        navigate(wizard.to, { state: wizard.state });
      }}
    />
  );
}
