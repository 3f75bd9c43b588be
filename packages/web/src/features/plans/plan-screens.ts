/** The plan screens, one chunk for the three routes that show them (plans.list, plans.new, plans.plan). */
export { PlansPage } from './components/plans-page';
export { PlanWizard } from './components/plan-wizard/plan-wizard';
