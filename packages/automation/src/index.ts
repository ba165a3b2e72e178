export * from './chromium.js';
export * from './page/locate-element.js';
export * from './flow/automation-error.js';
