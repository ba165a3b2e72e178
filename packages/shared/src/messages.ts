import { PASSWORD_MAX_LENGTH } from './constants.js';

/**
 * Every user-facing text the specs give, exactly as given. The API returns these in error bodies and
 * the SPA shows them through i18n (apps/web/src/lib/i18n.ts builds its `en` bundle from MESSAGES).
 * Keys keep the spec's message ids where it names one (e.g. extractor.list.error.name).
 */
export const MESSAGES = {
  // Login (data spec §8)
  'login.error.credentials': 'Password or username incorrect',
  'login.error.not.confirmed':
    'You must confirm your sign up confirmation received via email before logging in',
  'login.error.session.expired': 'Session has been expired, please sign in again.',
  'login.error.password.expired': 'Your password has expired and must be changed',
  'login.warning.password.expiring': 'Your password will expire in {{days}} days',
  'login.error.invalid.token': 'Invalid Token',
  'login.error.disabled': 'This account is disabled. Please contact your administrator.',
  'login.error.too.many.attempts': 'Too many login attempts. Please wait a minute and try again.',
  'login.email.required': 'Please type the email address',
  'login.password.required': 'Please type the password',
  'login.user.not.found': 'User not found',

  // Sign-up (data spec §5, §8)
  'signup.first.name.required': 'Please type the first name',
  'signup.last.name.required': 'Please type the last name',
  'signup.email.invalid': 'Email is not valid',
  'signup.email.exists': 'Email already exists',
  'signup.password.rule':
    'Password must contain a minimum of 9 characters. Being 4 letters, 4 numbers, 1 special character and no white spaces.',
  'signup.password.different': 'Password is different',
  'signup.complete.fields': 'Please complete all the fields correctly',
  'signup.error':
    'There was an error creating the account. Please check if the e-mail address is valid and try again.',
  'signup.check.email': 'Please check your email.',

  // Confirmation
  'confirmation.success': 'Success! Please try to login now.',
  'confirmation.error': 'Please try again later',

  // Forgot / change password (both specs §8)
  'forgot.email.not.found': 'E-mail not found',
  'forgot.internal.error': 'Internal server error',
  'forgot.check.email': 'Please, check your email',
  'password.changed': 'Password changed',
  'password.not.valid': 'The new password is not valid.',
  'password.same.as.current': 'The new password must be different from the current one.',
  'password.change.required': 'Your password must be changed before you continue.',
  'password.server.error': 'There was an error on the server.',
  'password.too.long': `Password must be at most ${PASSWORD_MAX_LENGTH} characters.`,

  // Generic
  'error.unknown': 'Unknown Error. Please try to refresh the page ({{errorMessage}}).',
  'error.invalid.token.parameter': 'Invalid token passed via parameter...',
  'error.user.info': 'Error getting user info. Please try again later.',
  'error.internal': 'Internal server error',
  'error.service.unavailable': 'The service is unavailable for a moment; please try again shortly.',
  'error.not.found': 'Not found',
  'error.unauthorized': 'Authentication required',
  'error.required': 'Required',
  'error.invalid.value': 'Invalid Value',
  'error.unsafe.characters': 'This field contains characters that are not allowed.',
  'error.name.line.break': 'A name must be one line: line breaks are not allowed.',
  'error.name.control': 'A name cannot hold control characters (such as a tab or an escape).',
  'error.file.name.control':
    'The file name contains a control character (such as NUL or a line break): rename the file and upload it again.',
  'error.bad.request': 'The request is not valid.',
  'error.bad.url': 'The address is not valid.',
  'error.uri.too.long': 'The address is too long.',
  'error.malformed.body': 'The request body is not valid JSON.',
  'error.payload.too.large': 'The request is too large.',
  'error.unsupported.media.type': 'This content type is not accepted.',
  'error.invalid.url': 'Invalid URL',
  'error.name.required': 'Name is required',
  'error.description.required': 'Description is required',
  'error.viewer.email.required': 'Viewer Email is required',
  'error.name.unique': 'This name already exists, please choose a different one.',

  // Extractor list (automation spec §5, §8)
  'extractor.list.error.name': 'Name is required',
  'extractor.list.error.description': 'Description is required',
  'extractor.list.error.unique': 'This name already exists, please choose a different one.',
  'extractor.list.error.get': 'Error loading the extractors',
  'insertor.list.error.name': 'Name is required',
  'insertor.list.error.description': 'Description is required',
  'insertor.list.error.unique': 'This name already exists, please choose a different one.',
  'insertor.list.error.get': 'Error loading the insertors',
  'navigator.list.error.name': 'Name is required',
  'navigator.list.error.description': 'Description is required',
  'navigator.list.error.unique': 'This name already exists, please choose a different one.',
  'navigator.list.error.get': 'Error loading the navigators',
  'navigator.list.error.viewer.email': 'Viewer Email is required',
  'extractor.delete.dataset': 'Could not delete this extractor, it is associated with a data set',
  'extractor.delete.executing': 'This extractor is executing; wait until it finishes or stop it first.',
  'extractor.pending.ask': 'a pending ask needs an answer',
  'extractor.execute.no.actions':
    'This extractor has no saved actions yet: open it, add its actions and save it, then execute it.',
  'run.waiting.for.worker': 'No worker is running: this run waits in the queue and starts when one does.',
  'extractor.error.cleared': 'Error messages cleared',
  'extractor.deleted': 'Extractor deleted',

  // Action builder (automation spec §8 "Builder keys"; the spec names the ids, not the words)
  'extractor.normalized.error': 'The page elements could not be read.',
  'extractor.resequence.error': 'The actions could not be re-sequenced.',
  'extractor.sequence.change.error': 'The sequence could not be changed.',
  'extractor.sequence.change.warning':
    "The new sequence must be greater than the first action's and not used by another action.",
  'extractor.sequence.change.success': 'Sequence changed',
  'extractor.first.action.change.warning': 'The first action cannot be re-sequenced.',
  'extractor.first.action.delete.warning': 'The first action cannot be deleted.',
  'extractor.first.action.navigate': 'The first action must be Navigate.',
  'extractor.action.deleted': 'Action removed; validate the extractor again before saving it.',
  'extractor.action.not.offered': 'This action is not offered in this builder.',
  'dialog.answer.recorded':
    'An answer to a dialog is recorded from the page: run the step that opens the dialog and answer it over the page view.',
  'extractor.must.validate': 'Validate the extractor before saving it.',
  'extractor.execute.error': 'The action could not be executed.',
  'extractor.finish.error': 'The builder could not be closed.',
  'extractor.edition.info': 'This action has nothing to edit.',
  'extractor.validate.success': 'Validation finished successfully',
  'extractor.validate.empty': 'There is nothing to validate: add an action first.',
  'extractor.save.success': 'Saved successfully',
  'extractor.save.error': 'The extractor could not be saved.',
  'extractor.read.only':
    'This item is read-only (the readOnlyEdit setting is on): its actions cannot be changed, validated or saved.',
  'extractor.ask.save.unsaved': 'Please, save the extractor before save for the next time!',
  'navigator.normalized.error': 'The page elements could not be read.',
  'navigator.change.action.success': 'Action changed',
  'navigator.change.action.error': 'The action could not be changed.',
  'navigator.reload.error': 'The page could not be reloaded.',
  'navigator.screenshot.error': 'Image for navigator not available yet.',
  'navigator.finish.error': 'The navigator could not be finished.',
  'error.while.loading.browser.screenshot': 'The browser screenshot could not be loaded.',
  // Action builder: the insertor's and the navigator's own wording of the builder events (spec §8
  // "Insertor and screen share have their own wording for the same events")
  'insertor.normalized.error': 'The page elements could not be read.',
  'insertor.resequence.error': 'The insertor actions could not be re-sequenced.',
  'insertor.must.validate': 'Validate the insertor before saving it.',
  'insertor.action.deleted': 'Action removed; validate the insertor again before saving it.',
  'insertor.execute.error': 'The insertor action could not be executed.',
  'insertor.finish.error': 'The insertor builder could not be closed.',
  'insertor.validate.success': 'Insertor validation finished successfully',
  'insertor.save.success': 'Insertor saved successfully',
  'insertor.save.error': 'The insertor could not be saved.',
  'navigator.execute.error': 'The navigator action could not be executed.',
  'navigator.save.success': 'Navigator saved successfully',
  'navigator.save.error': 'The navigator could not be saved.',
  'navigator.action.deleted': 'Action removed from the navigator.',

  // Screen share (automation spec §8: the saved-file info message; feature screen-share)
  'screen.share.file.saved': 'File saved: {{fileName}}',

  // Builder dialogs (automation spec §8: mask preview, time zones, investor ask)
  'extractor.mask.error': 'Error to apply mask',
  'extractor.timezones.error': 'Error to get Timezones',
  'extractor.investor.sign.in': 'You must sign in to use this action',

  // Datasets (data spec §5, §8; texts the spec only describes are ours, see docs/decisions.md)
  'dataset.list.error.name': 'Name is required',
  'dataset.list.error.description': 'Description is required',
  'dataset.list.error.unique': 'This name already exists, please choose a different one.',
  'dataset.field.name.required': 'Enter Dataset Fields Name',
  'dataset.field.name.unique': 'This field name is already used in this dataset',
  'dataset.field.keys.too.many':
    'A dataset can have at most {{max}} key fields; {{count}} are marked as key. Untick Key on the others.',
  'dataset.next.step.error': 'Unable to go to next step',
  'dataset.engine.field.fixed':
    'The field "{{name}}" belongs to the F-Engine: an F-Engine dataset keeps its fields as the engine defines them (names, types and keys cannot change, none can be added or removed)',
  'dataset.no.draft': 'This dataset wizard has ended; start it again from the dashboard.',
  'dataset.map.one.action.per.extractor':
    'A dataset field can take its value from only one action of each extractor',
  'dataset.map.file.field':
    'A FILE field takes its value from a file: a Get File, a Get Image or a FILE column',
  'dataset.delete.query': 'Could not delete this dataset, it is associated with a query',
  'dataset.field.remove.query': 'Could not remove this field, it is associated with a query',
  'dataset.saved': 'Dataset saved successfully',
  'dataset.deleted': 'Dataset deleted',
  'dataset.renamed': 'Dataset renamed successfully.',
  'dataset.canceled': 'Dataset wizard canceled',
  'dataset.not.found': 'Dataset not found',
  'dataset.fill.error': "The run's rows could not be written to its datasets",
  'dataset.map.keys.required':
    'Every extractor that fills this dataset must fill all its key fields: {{fields}}',
  'dataset.map.unknown.row': 'This value is not one of your extractors any more; go back a step',
  'dataset.map.unknown.field': 'There is no field named "{{name}}" in this dataset',
  'dataset.save.in.use': 'The dataset is in use (an export or a run is reading it). Try again shortly.',
  'dataset.save.too.long':
    'Changing this dataset took too long and nothing was changed. Try again when fewer runs and exports are busy.',
  'draft.changed.meanwhile':
    'This wizard was changed in another tab at the same moment; your change was not kept. Try it again.',
  'dataset.map.none':
    'Tick at least one box to map a value to a field: a dataset with nothing mapped would never get any rows.',

  // Queries (data spec §5, §8)
  'scheduler.list.error.name': 'Name is required',
  'scheduler.list.error.description': 'Description is required',
  'scheduler.list.error.unique': 'This name already exists, please choose a different one.',
  'scheduler.frequency.required': 'Please select the frequency',
  'scheduler.interval.required': 'Please select an interval',
  'scheduler.hour.required': 'Please type the hour',
  'scheduler.minute.required': 'Please type the minute',
  'scheduler.day.of.week.required': 'Please type the day of the week',
  'scheduler.day.of.month.required': 'Please type the day of the month',
  'scheduler.extractors.required': 'Please select at least one extractor',
  'scheduler.extractor.unknown': 'One of the chosen extractors is not yours or no longer exists',
  'scheduler.extractor.navigator': 'Navigators cannot be scheduled: they have no Execute',
  'scheduler.time.zone.unknown': 'Unknown time zone',
  'scheduler.conflict': 'Scheduler already exists',
  'scheduler.saved': 'Scheduler saved successfully',
  'scheduler.save.error': 'Error saving the scheduler',
  'scheduler.renamed': 'Scheduler renamed successfully.',
  'scheduler.deleted': 'Scheduler deleted',
  'scheduler.not.found': 'Scheduler not found',
  'scheduler.timezone.error': 'Error to get Timezones',
  'scheduler.skip.executing': 'Skipped: the extractor was still executing',
  'scheduler.skip.no.actions': 'Skipped: the extractor has no saved actions',
  'scheduler.skip.pending.ask': 'Skipped: the extractor is waiting for an answer',
  'scheduler.skip.queue': 'Skipped: the run could not be queued',
  'scheduler.missed':
    'Missed: Redis lost this schedule. Firings that did not happen: {{count}}, from {{first}} to {{last}} (UTC). Restored at {{restoredAt}}.',
  'scheduler.limit.count':
    'You already have {{max}} schedulers, the most one account may keep. Delete one before adding another.',
  'scheduler.limit.firings':
    'This timetable would bring your schedulers to {{total}} firings an hour; one account may have at most {{max}}. Choose a longer interval or delete another scheduler.',
  'extractor.delete.scheduler': 'Could not delete this extractor, it is associated with a scheduler',
  'query.list.error.name': 'Name is required',
  'query.list.error.description': 'Description is required',
  'query.list.error.unique': 'This name already exists, please choose a different one.',
  'query.all.fields.mandatory': 'All fields are mandatory',
  'query.renamed': 'Query renamed successfully.',
  'query.dataset.required': 'Choose a dataset to go on',
  'query.field.required': 'Choose at least one field to go on',
  'query.dataset.no.data': 'This dataset has no extracted data yet. Do you want to continue?',
  'query.order.sequence.unique': 'Each order sequence can be used by one field only',
  'query.operator.not.for.type': 'This operator does not apply to a {{type}} field',
  'query.value.not.number': 'Type a number',
  'query.value.not.date': 'Type a date (YYYY-MM-DD)',
  'query.value.not.range': 'Type two dates: from and to',
  'query.no.draft': 'This query wizard has ended; start it again from the dashboard.',
  'query.saved': 'Query saved successfully',
  'query.deleted': 'Query deleted',
  'query.canceled': 'Query wizard canceled',
  'query.not.found': 'Query not found',
  'query.file.not.found': 'File not found',
  'query.export.error': 'The spreadsheet could not be made. Please try again later.',
  'query.export.busy': 'Too many exports are running. Try again shortly.',
  'query.export.busy.user': 'You already have {{max}} exports running. Try again when one has finished.',

  // Messaging (data spec §5, §8; issue 14)
  'message.to.required': 'Field TO cannot be empty',
  'message.subject.required': 'Field SUBJECT cannot be empty',
  'message.subject.line.break': 'Field SUBJECT must be one line: line breaks are not allowed',
  'message.body.required': 'Field BODY cannot be empty',
  'message.field.too.long': 'Field {{field}} must be at most {{max}} characters',
  'message.address.invalid': 'Field {{field}} has an address that is not valid: {{address}}',
  'message.attachment.name.required': 'Every attached file needs a name',
  'message.attachment.not.base64': 'The attached file {{name}} could not be read (its content is not base64)',
  'message.attachment.too.many': 'A message can carry at most {{max}} attached files',
  'message.too.large':
    'The message is too large: the message and its attached files must stay under {{mb}} MB.',
  'message.too.many': 'Too many messages sent in a minute. Please wait a moment and try again.',
  // Issue 24: limits on what a message may reach and carry (settings in the API's config).
  'message.recipients.too.many': 'A message can go to at most {{max}} recipients (To, Cc and Bcc together).',
  'message.reply.outside.thread':
    'A reply through a link can only go to the people in this conversation: {{address}} is not one of them.',
  'message.account.sends.per.day':
    'You have sent the most messages allowed in a day ({{max}}). Please try again tomorrow.',
  'message.account.recipients.per.day':
    'Your messages have reached the most recipients allowed in a day ({{max}}). Please try again tomorrow.',
  'message.link.sends.per.day':
    'This link has sent the most replies allowed in a day ({{max}}). Please try again tomorrow.',
  'message.link.recipients.per.day':
    'The replies through this link have reached the most recipients allowed in a day ({{max}}). Please try again tomorrow.',
  'message.link.attachments.quota':
    'Replies through a link can attach at most {{mb}} MB of files to a conversation.',
  'message.attachments.quota': 'The attached files would take your message storage over its {{mb}} MB.',
  'message.large.busy.user':
    'You are already sending a large message. Please wait until it has gone, then try again.',
  'message.large.busy': 'Too many large messages are being sent right now. Please try again in a moment.',
  'message.sent': 'Message successfully sent',
  'message.deleted': 'Message successfully deleted',
  'message.list.error': 'Error retrieving messages',
  'message.delete.error': 'Message could not be deleted',
  'message.send.error': 'Error sending message. Please try again later',
  'message.attachment.error': 'Could not retrieve file. Please try again later.',
  'message.not.found': 'Message not found',
  'message.reply.of.required': 'A reply needs the message it answers (replyOf)',
  'message.reply.sign.in': 'Sign in, or open the link you received by e-mail, to reply to this message',

  // Statement recognition and templates (data spec §8; wording ours where the spec names a message
  // without giving it: docs/decisions.md, issue 15)
  'template.list.error': 'Error retrieving the templates',
  'template.none': 'There are no templates yet. Create one in Template settings.',
  'template.name.required': 'Template name cannot be empty',
  'template.name.unique': 'This name already exists, please choose a different one.',
  'template.added': 'Template created',
  'template.add.error': 'The template could not be created',
  'template.renamed': 'Template renamed',
  'template.rename.error': 'The template could not be renamed',
  'template.copied': 'Template copied',
  'template.copy.error': 'The template could not be copied',
  'template.deleted': 'Template deleted',
  'template.delete.error': 'The template could not be deleted',
  'template.not.found': 'Template not found',
  'template.image.list.error': 'Error retrieving the page images',
  'template.image.upload.error': 'The PDF could not be uploaded',
  'template.image.uploaded': 'PDF uploaded; its pages are being prepared',
  'template.image.not.pdf': 'Only PDF files are accepted',
  'template.image.too.large': 'The PDF is too large: at most {{mb}} MB',
  'template.image.one.file': 'Upload one PDF file',
  'template.image.has.pages': 'This template already has pages: delete them before uploading another PDF',
  'template.image.unreadable': 'The PDF could not be read: {{reason}}',
  'template.image.deleted': 'Page deleted',
  'template.image.delete.error': 'The page could not be deleted',
  'template.images.deleted': 'All pages deleted',
  'template.images.delete.error': 'The pages could not be deleted',
  'template.image.not.found': 'Page image not found',
  'template.mapping.list.error': 'Error retrieving the boxes of this page',
  'template.mapping.added': 'Template saved',
  'template.mapping.add.error': 'The boxes could not be saved',
  'template.mapping.type.invalid': 'The field type must be TEXT or CHECKBOX',
  'template.mapping.label.required': 'Every box needs a field name',
  'template.mapping.deleted': 'Box deleted',
  'recognition.no.template': 'No template selected...',
  'recognition.success': 'File converted',
  'recognition.error': 'Error converting file, please try again',
  'recognition.csv.error': 'The CSV could not be made. Please try again.',
  'recognition.only.kyc': 'Only KYC form allowed at this moment',
  'recognition.too.many.files': 'Up to 100 PDF files at a time',
  'recognition.not.pdf': 'Only PDF files are accepted',
  'recognition.token.unknown': 'This result is not available any more; process the file again',
  'recognition.mismatch': 'Does not match the template',
  'recognition.mismatch.label': 'Template',
  'recognition.failed.boxes': 'boxes that failed: {{boxes}}',
  'recognition.mismatch.page.count': 'it has {{pageCount}} pages where the sample had {{samplePageCount}}',
  'recognition.mismatch.page.size':
    "page {{page}} is {{size}} pt, not the size of the sample's page{{sampleSize}}",
  'recognition.mismatch.anchors': 'the labels the boxes are anchored to are not on the page: {{labels}}',
  'recognition.mismatch.unlike': "most boxes read text unlike the sample's: {{labels}}",
  'recognition.box.anchor.missing': 'its anchor label is not on the page',
  'recognition.box.unlike.sample': "it reads text unlike the sample's",
  // Refusals of a PDF before it is read (issue 24): the worker fails the job with the sentence.
  'recognition.pdf.page.size':
    'Page {{page}} of this PDF measures {{width}} × {{height}} points: a page must measure between 1 and 14,400 points (200 inches) on each side.',
  'recognition.pdf.too.many.pages': 'This PDF has {{pageCount}} pages: at most {{max}} can be read.',

  // API keys and the public API /api/v1 (issue 26)
  'apikey.missing': 'This call needs an API key: send the header Authorization: Bearer pw_…',
  'apikey.invalid': 'This API key is not valid. Check that it was copied whole.',
  'apikey.revoked': 'This API key has been revoked. Create a new key in Settings.',
  'apikey.expired': 'This API key has expired. Create a new key in Settings.',
  'apikey.scope.run': 'This API key can only read. Create a key with the Run scope to start runs.',
  'apikey.rate.limited': 'Too many calls with this API key. Try again in {{seconds}} seconds.',
  'apikey.session.only': 'API keys work only on the public API (/api/v1). Sign in to use this call.',
  'apikey.not.found': 'API key not found',
  'apikey.revoked.done': 'API key revoked',
  'apikey.name.required': 'Please type a name for the key',
  'apikey.expiry.past': 'The expiry date must be in the future',
  'apikey.expiry.both': 'Give the expiry in days or as a date, not both',
  'apikey.too.many': 'You have {{max}} API keys: revoke one before creating another.',
  'publicapi.bad.cursor': 'This cursor is not valid: pass the nextCursor of the previous page unchanged.',
  'publicapi.waits.busy':
    'Too many calls are waiting for runs to end. Try again shortly, or call without wait.',

  // Webhooks and change alerts (issue 26)
  'webhook.url.invalid': 'Type the address to call: an http:// or https:// URL',
  'webhook.events.required': 'Choose at least one event',
  'webhook.not.found': 'Webhook not found',
  'webhook.delivery.not.found': 'Delivery not found',
  'webhook.owner.not.found': 'Extractor or scheduler not found',
  'webhook.deleted': 'Webhook deleted',
  'webhook.redelivered': 'Delivery queued again',
  'webhook.test.sent': 'Test event queued',
  'webhook.too.many': 'This item already has {{max}} webhooks: delete one before adding another.',
  'webhook.no.encryption.key': 'Webhook secrets cannot be opened: the worker has no ENCRYPTION_KEY.',
  'webhook.refused': 'Refused by the egress policy: {{reason}}',

  // Bulk runs (issue 26, item 4)
  'bulk.run.not.found': 'Bulk run not found',
  'bulk.run.no.inputs':
    'This extractor has no inputs: in the builder, make a typed text or an opened URL an input first.',
  'bulk.run.empty': 'There is nothing to run: the source has no rows.',
  'bulk.run.too.many': 'A bulk run takes at most {{max}} inputs; this source has {{count}}.',
  'bulk.run.row.invalid': 'Row {{row}}: {{message}}',
  'bulk.run.csv.invalid': 'The CSV file could not be read: {{reason}}',
  'bulk.run.csv.too.large': 'The CSV file is larger than {{max}} MB.',
  'bulk.run.column.unknown': 'The column {{column}} is not an input of this extractor.',
  'bulk.run.column.missing': 'The source has no column {{column}} for the input {{input}}.',
  'bulk.run.lines.input.required': 'Choose the input the lines go to.',
  'bulk.run.source.not.found': 'Dataset or query not found',
  'bulk.run.item.not.retryable': 'Only a row that failed or was stopped can be run again.',
  'bulk.run.nothing.to.retry': 'No row of this bulk run failed or was stopped.',
  'bulk.run.finished': 'This bulk run has finished.',
  'bulk.run.too.many.running':
    'You have {{max}} bulk runs going: wait for one to finish, or cancel one, before starting another.',
  'bulk.run.item.extractor.gone': 'The extractor was deleted.',
  'bulk.run.item.no.actions': 'The extractor has no saved actions to run.',
  'bulk.run.item.cancelled': 'Cancelled before it ran.',

  // Settings screen
  'settings.title': 'Settings',
  'settings.change.password': 'Change password',
  'help.title': 'Help',
  'notfound.title': 'Page not found',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** Fills `{{name}}` placeholders; the SPA uses i18next for the same syntax. */
export function formatMessage(key: MessageKey, values: Record<string, string | number> = {}): string {
  return MESSAGES[key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
}
