/**
 * The SPA's own labels (field labels, buttons, headings). The texts the specs give are not repeated
 * here: they come from MESSAGES of @pagewright/shared, merged into the same bundle by i18n.ts.
 * Field and button labels are also the end-to-end tests' handles (getByLabel / getByRole).
 */
export const UI_LABELS = {
  'app.title': 'Pagewright',
  'app.loading': 'Loading',

  'toolbar.logout': 'Logout',

  'breadcrumb.home': 'Home',
  'breadcrumb.extractor': 'Extractor',
  'breadcrumb.insertor': 'Insertor',
  'breadcrumb.screen.share': 'Screen Share',
  'breadcrumb.dataset': 'Dataset',
  'breadcrumb.query': 'Query',
  'breadcrumb.scheduler': 'Scheduler',
  'breadcrumb.messaging.new': 'Write a new Message',
  'breadcrumb.message': 'Message',
  'breadcrumb.statement.recognition': 'Statement Recognition',
  'breadcrumb.template.settings': 'Template Settings',
  'breadcrumb.file': 'File',

  'page.dataset.new': 'New dataset',
  'page.query.new': 'New query',
  'page.scheduler.new': 'New scheduler',
  'page.file': 'File download',
  'placeholder.text': 'This feature arrives in a later release.',

  'notfound.text': 'The page you are looking for does not exist.',
  'notfound.link': 'Go to the home page',

  'field.email': 'E-mail',
  'field.password': 'Password',
  'field.first.name': 'First name',
  'field.last.name': 'Last name',
  'field.retype.password': 'Retype password',
  'field.new.password': 'New password',
  'field.retype.new.password': 'Retype new password',
  'field.show.characters': 'Show characters',
  'field.hide.characters': 'Hide characters',

  'login.heading': 'Welcome back',
  'login.remember.me': 'Remember me',
  'login.forgot.link': 'Forgot password?',
  'login.submit': 'Sign in',
  'login.register.link': "Don't have an account? Sign up",

  'signup.heading': 'Create your account',
  'signup.submit': 'Create',
  'signup.login.link': 'Already have an account? Sign in',

  'welcome.heading': 'Welcome to Pagewright!',
  'welcome.text':
    'Your account has been created. Click the link in the e-mail we sent you to confirm your address, then sign in.',
  'welcome.back': 'Back to login',

  'confirmation.pending': 'Confirming your registration…',

  'forgot.heading': 'Forgot your password?',
  'forgot.text':
    'Type the e-mail address of your account and we will send you an e-mail to reset your password.',
  'forgot.submit': 'Submit',
  'forgot.return': 'Return to login',

  'settings.preferences': 'Preferences',
  'settings.panels': 'Dashboard panels',
  'settings.behaviour': 'Behaviour',
  'setting.showDataExtractor': 'Extractors',
  'setting.showDataInserter': 'Insertors',
  'setting.showDatasetAndQueries': 'Datasets and queries',
  'setting.showScheduler': 'Scheduler',
  'setting.showNavigator': 'Navigators',
  'setting.showMessaging': 'Messaging',
  'setting.showStatementRecognition': 'Statement Recognition',
  'setting.readOnlyEdit': 'Read-only edit of saved items',
  'setting.listRefreshInterval': 'List refresh interval (ms)',
  'setting.checkImageRefreshInterval': 'Screenshot refresh interval (ms)',
  'setting.save': 'Save',

  'help.intro': 'Release notes of each part of Pagewright (PDF):',
  'help.open': 'Open',
  'help.download': 'Download',

  'dashboard.empty': 'No items yet',
  'dashboard.no.panels': 'Every dashboard panel is turned off. Turn them on in Settings.',

  'logout.pending': 'Signing out…',
} as const;
