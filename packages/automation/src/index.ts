export * from './chromium.js';
export * from './page/locate-element.js';
export * from './flow/automation-error.js';
export * from './safety/navigation-guard.js';
