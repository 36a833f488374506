import type { PlanData } from '@/lib/protocol/view-artifact-data';

const STATE_LABEL: Record<PlanData['steps'][number]['state'], string> = {
  pending: 'Pending',
  'in-progress': 'In progress',
  done: 'Done',
  failed: 'Failed',
  skipped: 'Skipped',
};
const STATE_MARK: Record<PlanData['steps'][number]['state'], string> = {
  pending: '○',
  'in-progress': '◐',
  done: '✓',
  failed: '✕',
  skipped: '–',
};

/** A plan artifact: numbered steps, each with its state in words (not only a colour). */
export function ArtifactPlan({ data }: { data: PlanData }) {
  return (
    <ol className="artifact-plan">
      {data.steps.map((step, index) => (
        <li key={index} className="plan-step" data-state={step.state}>
          <span className="plan-mark" aria-hidden="true">
            {STATE_MARK[step.state]}
          </span>
          <span className="plan-body">
            <span className="plan-title">{step.title}</span>
            <span className="plan-state">{STATE_LABEL[step.state]}</span>
            {step.detail && <span className="plan-detail">{step.detail}</span>}
          </span>
        </li>
      ))}
    </ol>
  );
}
