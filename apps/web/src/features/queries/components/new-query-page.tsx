import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, createQueryRequestSchema } from '@pagewright/shared';
import { useNameDescriptionForm } from '../../../components/name-description-fields';
import { NameDescriptionPage } from '../../../components/name-description-page';
import { browserTimeZone } from '../../../lib/time-zone';
import { createQuery } from '../api/create-query';
import { queryWizardLocation } from '../wizard-location';

/**
 * /query-extractor (data spec §2): name and description, then the wizard on /Query. The query's
 * date filters count days in the browser's time zone, sent along.
 */
export function NewQueryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useNameDescriptionForm({
    schema: createQueryRequestSchema,
    uniqueText: MESSAGES['query.list.error.unique'],
  });

  return (
    <NameDescriptionPage
      title={t('page.query.new')}
      form={form}
      onCreate={async (values) => {
        const { id } = await createQuery({ ...values, timeZone: browserTimeZone() });
        const location = queryWizardLocation({ queryId: id, ...values, mode: 'new' });
        navigate(location.to, { state: location.state });
      }}
    />
  );
}
