export * from './mailer.js';
export * from './layout.js';
