/**
 * The labels of the SPA's first download: the account screens (sign-in, sign-up, password,
 * confirmation, logout), the not-found and error pages, and what every screen shows. They are in
 * i18n-core.ts from the start; the app's other labels (ui-labels.ts) arrive with the app's frame.
 */
export const ACCOUNT_LABELS = {
  'app.title': 'Pagewright',
  'app.loading': 'Loading',
  'logout.pending': 'Signing out…',

  'notfound.text': 'The page you are looking for does not exist.',
  'notfound.link': 'Go to the home page',

  'route.error.title': 'This page could not be shown',
  'route.error.text':
    'Something went wrong while loading this page. Pagewright may have been updated: reload to get the latest version.',
  'route.error.reload': 'Reload',
  'route.error.dashboard': 'Back to dashboard',

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
} as const;
