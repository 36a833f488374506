import { useState, type FormEvent } from 'react';
import type { BudgetKind } from '@/lib/protocol/notify-events';
import { usageSettingsSchema, type UsageSettings } from '@/lib/usage/usage-settings';
import { KNOWN_PRICES_DATE } from '@/lib/usage/known-prices';
import { issuesText } from '@/lib/protocol/issue-text';

export interface UsageSettingsFormProps {
  initial: UsageSettings;
  /** Saves; turning browser notifications on asks for the permission first (in this click). */
  onSave(settings: UsageSettings): Promise<string>;
}

interface BudgetDraft {
  unit: 'tokens' | 'money';
  limit: string;
}

interface PriceDraft {
  model: string;
  input: string;
  output: string;
  cached: string;
  asOf?: string;
}

function budgetDraft(settings: UsageSettings, kind: BudgetKind): BudgetDraft {
  const budget = settings.budgets[kind];
  return { unit: budget?.unit ?? 'tokens', limit: budget ? String(budget.limit) : '' };
}

function parsedBudget(draft: BudgetDraft) {
  return draft.limit.trim() === '' ? undefined : { unit: draft.unit, limit: Number(draft.limit) };
}

const BUDGET_LABEL: Record<BudgetKind, string> = {
  conversation: 'Per conversation',
  day: 'Per day (all conversations)',
};

/** Budgets, the price table behind cost estimates, and browser notifications. */
export function UsageSettingsForm({ initial, onSave }: UsageSettingsFormProps) {
  const [budgets, setBudgets] = useState<Record<BudgetKind, BudgetDraft>>({
    conversation: budgetDraft(initial, 'conversation'),
    day: budgetDraft(initial, 'day'),
  });
  const [prices, setPrices] = useState<PriceDraft[]>(() =>
    initial.prices.map((price) => ({
      model: price.model,
      input: String(price.inputPerMillion),
      output: String(price.outputPerMillion),
      cached: price.cachedInputPerMillion === undefined ? '' : String(price.cachedInputPerMillion),
      ...(price.asOf ? { asOf: price.asOf } : {}),
    })),
  );
  const [notifications, setNotifications] = useState(initial.browserNotifications);
  const [status, setStatus] = useState('');
  const editPrice = (index: number, change: Partial<PriceDraft>) =>
    setPrices(prices.map((price, at) => (at === index ? { ...price, ...change, asOf: undefined } : price)));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const conversation = parsedBudget(budgets.conversation);
    const day = parsedBudget(budgets.day);
    const parsed = usageSettingsSchema.safeParse({
      budgets: { ...(conversation ? { conversation } : {}), ...(day ? { day } : {}) },
      prices: prices
        .filter((price) => price.model.trim())
        .map((price) => ({
          model: price.model,
          inputPerMillion: Number(price.input),
          outputPerMillion: Number(price.output),
          ...(price.cached.trim() ? { cachedInputPerMillion: Number(price.cached) } : {}),
          ...(price.asOf ? { asOf: price.asOf } : {}),
        })),
      browserNotifications: notifications,
    });
    if (!parsed.success) {
      setStatus(`Not saved: ${issuesText(parsed.error.issues)}`);
      return;
    }
    setStatus(await onSave(parsed.data));
  };
  return (
    <form className="options-form usage-settings" onSubmit={submit} aria-label="Usage and budgets">
      <p className="hint">
        When a budget is reached, the running reply stops after the model call or tool call in flight, and a new one
        needs a higher budget or your confirmation to go over it once. Money is an estimate from the prices below.
      </p>
      {(['conversation', 'day'] as const).map((kind) => (
        <fieldset key={kind} className="budget-row">
          <legend>{BUDGET_LABEL[kind]}</legend>
          <label>
            Budget (empty: none)
            <input
              type="number"
              min={0}
              step="any"
              name={`budget-${kind}`}
              value={budgets[kind].limit}
              onInput={(event) =>
                setBudgets({ ...budgets, [kind]: { ...budgets[kind], limit: event.currentTarget.value } })
              }
            />
          </label>
          <label>
            In
            <select
              name={`budget-${kind}-unit`}
              value={budgets[kind].unit}
              onChange={(event) =>
                setBudgets({
                  ...budgets,
                  [kind]: { ...budgets[kind], unit: event.target.value === 'money' ? 'money' : 'tokens' },
                })
              }
            >
              <option value="tokens">tokens (input + output)</option>
              <option value="money">US dollars (estimated)</option>
            </select>
          </label>
        </fieldset>
      ))}
      <label className="checkbox-row">
        <input
          type="checkbox"
          name="browser-notifications"
          checked={notifications}
          onChange={(event) => setNotifications(event.target.checked)}
        />
        Notify me when a reply waits for me or finishes while the chat panel is not visible
      </label>
      <table className="price-table">
        <caption>
          Prices in US dollars per million tokens. The shipped ones were read on {KNOWN_PRICES_DATE}; check your
          provider's page. A model without a price shows tokens only.
        </caption>
        <thead>
          <tr>
            <th scope="col">Model (or prefix)</th>
            <th scope="col">Input</th>
            <th scope="col">Output</th>
            <th scope="col">Cached input</th>
            <th scope="col">As of</th>
            <th scope="col">
              <span className="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {prices.map((price, index) => (
            <tr key={index}>
              {(['model', 'input', 'output', 'cached'] as const).map((field) => (
                <td key={field}>
                  <input
                    aria-label={`${field} ${price.model || `row ${index + 1}`}`}
                    type={field === 'model' ? 'text' : 'number'}
                    min={0}
                    step="any"
                    value={price[field]}
                    onInput={(event) => editPrice(index, { [field]: event.currentTarget.value })}
                  />
                </td>
              ))}
              <td>{price.asOf ?? 'yours'}</td>
              <td>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => setPrices(prices.filter((_, at) => at !== index))}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="form-actions">
        <button
          type="button"
          className="button-secondary"
          onClick={() => setPrices([...prices, { model: '', input: '', output: '', cached: '' }])}
        >
          Add a price
        </button>
        <button type="submit">Save usage settings</button>
        <span role="status">{status}</span>
      </div>
    </form>
  );
}
