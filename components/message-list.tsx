import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { isNearBottom } from '@/lib/panel/scroll-position';
import type { ClientState } from '@/lib/state/client-state';
import { ArrowDownIcon } from './icons';
import { TurnView } from './turn-view';

export interface MessageListProps {
  state: ClientState;
  running: boolean;
  onRetry(turnId: string): void;
  onResend(text: string, turnId: string): void;
  onOpenOptions(): void;
  /** Shown instead of the turns when there are none. */
  empty: ReactNode;
}

const ESTIMATED_TURN_HEIGHT = 160;

/**
 * The conversation, virtualized (only the turns near the viewport are in the DOM). It follows new
 * content only while the reader is at the bottom; otherwise a "New messages" button appears.
 */
export function MessageList({ state, running, onRetry, onResend, onOpenOptions, empty }: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const sizerRef = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const [unseen, setUnseen] = useState(false);
  const { turnOrder } = state;
  // The build runs no React Compiler, and the virtualizer's functions are called here, never handed to memoized children.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: turnOrder.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_TURN_HEIGHT,
    getItemKey: (index) => turnOrder[index],
    overscan: 3,
  });

  /** Where the list last scrolled itself to; a reader above it has scrolled up, even before the scroll event says so. */
  const followedTo = useRef(0);
  const scrollToBottom = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    followedTo.current = element.scrollTop;
  }, []);

  /** Whether to keep following: a scroll up that content arrived ahead of must not be undone. */
  const stillStuck = useCallback(() => {
    const element = scrollRef.current;
    if (stuck.current && element && element.scrollTop < followedTo.current && !isNearBottom(element))
      stuck.current = false;
    return stuck.current;
  }, []);

  const follow = useCallback(() => {
    if (stillStuck()) scrollToBottom();
    else setUnseen(true);
  }, [scrollToBottom, stillStuck]);

  useLayoutEffect(follow, [
    state.turns,
    state.items,
    state.streaming,
    state.toolCalls,
    state.jobs,
    state.notifications,
    follow,
  ]);

  useEffect(() => {
    const sizer = sizerRef.current;
    if (!sizer) return;
    const observer = new ResizeObserver(() => {
      if (stillStuck()) scrollToBottom();
    });
    observer.observe(sizer);
    return () => observer.disconnect();
  }, [scrollToBottom, stillStuck]);

  useEffect(() => {
    stuck.current = true;
    followedTo.current = 0;
    setUnseen(false);
  }, [state.sessionId]);

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    stuck.current = isNearBottom(element);
    if (stuck.current) setUnseen(false);
  };

  const jumpToEnd = () => {
    stuck.current = true;
    followedTo.current = 0;
    setUnseen(false);
    if (turnOrder.length) virtualizer.scrollToIndex(turnOrder.length - 1, { align: 'end' });
    requestAnimationFrame(scrollToBottom);
  };

  const lastTurnId = turnOrder.at(-1);
  const retried = useMemo(
    () => new Set(turnOrder.map((turnId) => state.turns[turnId]?.retryOf).filter(Boolean)),
    [turnOrder, state.turns],
  );
  return (
    <div className="message-list-frame">
      <div className="message-list" ref={scrollRef} onScroll={onScroll} tabIndex={-1}>
        {turnOrder.length === 0 && empty}
        <div ref={sizerRef} className="virtual-sizer" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((row) => {
            const turn = state.turns[turnOrder[row.index]];
            return (
              <div
                key={row.key}
                ref={virtualizer.measureElement}
                data-index={row.index}
                className="virtual-row"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {turn && (
                  <TurnView
                    turn={turn}
                    items={state.items}
                    streaming={state.streaming}
                    toolCalls={state.toolCalls}
                    requests={state.requests}
                    commands={state.commands}
                    jobs={state.jobs}
                    canRetry={!running && turn.turnId === lastTurnId}
                    canEdit={!running}
                    superseded={retried.has(turn.turnId)}
                    onRetry={onRetry}
                    onResend={onResend}
                    onOpenOptions={onOpenOptions}
                  />
                )}
              </div>
            );
          })}
        </div>
        {state.notifications.map((notice) => (
          <div key={notice.notificationId} className={`notice notice-${notice.level}`} role="status">
            {notice.message}
          </div>
        ))}
      </div>
      {unseen && (
        <button type="button" className="new-messages" onClick={jumpToEnd}>
          <ArrowDownIcon /> New messages
        </button>
      )}
    </div>
  );
}
