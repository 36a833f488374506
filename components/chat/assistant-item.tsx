import { memo } from 'react';
import type { ItemState } from '@/lib/state/client-state';
import { MarkdownView } from '../markdown/markdown-view';

/** An assistant answer (markdown) or a reasoning block (collapsed). Only the item's own record is read. */
export const AssistantItem = memo(function AssistantItem({ item }: { item: ItemState }) {
  const streaming = item.status === 'streaming';
  if (item.kind === 'reasoning') {
    return (
      <details className={`message reasoning-message item-${item.status}`} data-item-status={item.status}>
        <summary>{streaming ? 'Thinking…' : 'Reasoning'}</summary>
        <div className="reasoning-text">{item.text}</div>
      </details>
    );
  }
  return (
    <div className="assistant-block">
      <div
        className={`message assistant-message item-${item.status}${streaming ? ' is-streaming' : ''}`}
        data-item-status={item.status}
      >
        <MarkdownView text={item.text} streaming={streaming} />
      </div>
      {item.status === 'interrupted' && <div className="item-badge">Partial answer — the stream was cut off here.</div>}
    </div>
  );
});
