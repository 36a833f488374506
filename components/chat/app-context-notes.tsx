import type { AppContextView } from '@/lib/state/client-state';
import { MessageAttachments } from '../files/attachment-preview';

export interface AppContextNotesProps {
  contexts: readonly AppContextView[];
  /** Not sent yet: the user's next message will carry them. */
  pending?: boolean;
}

/**
 * What MCP Apps told the model (`ui/update-model-context`), word for word: under the message that carried it to
 * the model, or above the composer while the next message will. Nothing an app tells the model is hidden from
 * the user.
 */
export function AppContextNotes({ contexts, pending = false }: AppContextNotesProps) {
  if (contexts.length === 0) return null;
  return (
    <div className={`app-contexts${pending ? ' app-contexts-pending' : ''}`} data-pending={pending || undefined}>
      {contexts.map((context) => (
        <details key={context.contextId} className="app-context" data-context-id={context.contextId} open>
          <summary>
            {pending
              ? `The MCP App “${context.app}” of ${context.serverName} will tell the model with your next message:`
              : `Sent with this message: what the MCP App “${context.app}” of ${context.serverName} told the model`}
          </summary>
          <p className="app-context-text">{context.text || '(Nothing: it withdrew what it had told the model.)'}</p>
          {context.structuredContent && (
            <pre className="app-context-data">{JSON.stringify(context.structuredContent, null, 2)}</pre>
          )}
          {context.images && <MessageAttachments blobs={context.images} />}
        </details>
      ))}
    </div>
  );
}
