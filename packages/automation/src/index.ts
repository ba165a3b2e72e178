export * from './chromium.js';
export * from './page/locate-element.js';
export * from './flow/automation-error.js';
export * from './safety/navigation-guard.js';
export * from './safety/egress-proxy.js';
export * from './flow/classify-error.js';
export * from './flow/flow-types.js';
export * from './flow/run-flow.js';
export {
  BROWSER_CLOSED_MESSAGE,
  browserLossBehind,
  describeBrowserLoss,
  giveUpBrowser,
} from './flow/browser-loss.js';
export type { ActionContext, ActionExecutor, ActionOutcome } from './actions/action-context.js';
export * from './actions/executors.js';
export { wheelAt } from './actions/page-actions.js';
export * from './values/number-mask.js';
export * from './values/date-mask.js';
export * from './values/conditions.js';
export * from './page/element-at-point.js';
export * from './page/fallback-locators.js';
export * from './page/normalized-page.js';
export * from './page/page-frames.js';
