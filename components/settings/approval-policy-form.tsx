import { useState, type FormEvent } from 'react';
import { approvalMode, approvalPolicySchema, type ApprovalPolicy } from '@/lib/tool-family/approval-policy';
import { APPROVAL_TOOLS } from '@/lib/tools/approval-requirement';
import { issuesText } from '@/lib/protocol/issue-text';

export interface ApprovalPolicyFormProps {
  initial: ApprovalPolicy;
  onSave(policy: ApprovalPolicy): Promise<string>;
}

/** Which tool calls wait for the user's "Allow", and how long a request or question stays answerable. */
export function ApprovalPolicyForm({ initial, onSave }: ApprovalPolicyFormProps) {
  const [tools, setTools] = useState<Record<string, 'ask' | 'allow'>>(() =>
    Object.fromEntries(APPROVAL_TOOLS.map((name) => [name, approvalMode(initial, name)])),
  );
  const [expires, setExpires] = useState(String(initial.expiresAfterSeconds));
  const [questionExpires, setQuestionExpires] = useState(String(initial.questionExpiresAfterSeconds));
  const [status, setStatus] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = approvalPolicySchema.safeParse({
      tools,
      expiresAfterSeconds: Number(expires),
      questionExpiresAfterSeconds: Number(questionExpires),
    });
    if (!parsed.success) {
      setStatus(`Not saved: ${issuesText(parsed.error.issues)}`);
      return;
    }
    setStatus(await onSave(parsed.data));
  };
  return (
    <form className="options-form approval-policy" onSubmit={submit} aria-label="Approvals">
      <p className="hint">
        A call that needs approval waits for your "Allow" in the chat panel; nothing runs without it. A target can also
        ask for approval of a parameter or of a reset in its manifest.
      </p>
      {APPROVAL_TOOLS.map((name) => (
        <label key={name}>
          {name}
          <select
            value={tools[name]}
            onChange={(event) => setTools({ ...tools, [name]: event.target.value === 'ask' ? 'ask' : 'allow' })}
          >
            <option value="allow">Run without asking (unless the target asks)</option>
            <option value="ask">Ask me every time</option>
          </select>
        </label>
      ))}
      <label>
        An approval request is denied after (seconds)
        <input
          type="number"
          min={5}
          max={3600}
          value={expires}
          onInput={(event) => setExpires(event.currentTarget.value)}
        />
      </label>
      <label>
        A question from the model expires after (seconds)
        <input
          type="number"
          min={5}
          max={86400}
          value={questionExpires}
          onInput={(event) => setQuestionExpires(event.currentTarget.value)}
        />
      </label>
      <div className="editor-actions">
        <button type="submit">Save approvals</button>
      </div>
      <p role="status">{status}</p>
    </form>
  );
}
