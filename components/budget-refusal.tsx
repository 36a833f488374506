export interface BudgetRefusalProps {
  message: string;
  onSendOnce(): void;
  onOpenOptions(): void;
  onDismiss(): void;
}

/** A new turn the runtime refused at a budget: raise the budget, or send this one message over it. */
export function BudgetRefusal({ message, onSendOnce, onOpenOptions, onDismiss }: BudgetRefusalProps) {
  return (
    <div className="panel-error budget-refusal" role="alert">
      <span>{message}</span>
      <div className="budget-refusal-actions">
        <button type="button" className="button-secondary" onClick={onSendOnce}>
          Send once over budget
        </button>
        <button type="button" className="link-button" onClick={onOpenOptions}>
          Raise the budget
        </button>
        <button type="button" className="link-button" onClick={onDismiss}>
          Cancel
        </button>
      </div>
    </div>
  );
}
