import { usePanelActions } from '../shared/panel-actions';

/** A new turn the runtime refused at a budget: raise the budget, or send this one message over it. */
export function BudgetRefusal({ message }: { message: string }) {
  const { sendOverBudget, openOptions, dismissBudgetRefusal } = usePanelActions();
  return (
    <div className="panel-error budget-refusal" role="alert">
      <span>{message}</span>
      <div className="budget-refusal-actions">
        <button type="button" className="button-secondary" onClick={sendOverBudget}>
          Send once over budget
        </button>
        <button type="button" className="link-button" onClick={openOptions}>
          Raise the budget
        </button>
        <button type="button" className="link-button" onClick={dismissBudgetRefusal}>
          Cancel
        </button>
      </div>
    </div>
  );
}
