import { defaultRangeExtractor, useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type WheelEvent,
} from 'react';
import { estimateTurnHeight } from '@/lib/panel/estimate-turn-height';
import { rowsWith } from '@/lib/panel/rows-with';
import { isNearBottom } from '@/lib/panel/scroll-position';
import type { ClientState } from '@/lib/state/client-state';
import { pathTo } from '@/lib/state/branch-tree';
import { groupFactsByTurn } from '@/lib/state/group-facts-by-turn';
import { DeferredMount } from './deferred-mount';
import { FactNotices } from '../notices/fact-notices';
import { ArrowDownIcon } from '../shared/icons';
import { usePanelActions } from '../shared/panel-actions';
import { TurnView } from './turn-view';
import type { TurnJump } from '@/lib/panel/turn-jump';
import { CompactionDivider } from './compaction-divider';
import { RewoundNotice } from './rewound-notice';

export interface MessageListProps {
  state: ClientState;
  running: boolean;
  /** Shown instead of the turns when there are none. */
  empty: ReactNode;
  /** A turn to scroll to and mark, once its conversation is the one shown. */
  jumpTo?: TurnJump;
}

/** The height a turn not loaded yet holds in the list, so that the scroll bar spans the whole conversation. */
const UNLOADED_TURN_PX = 200;
const MAX_PAGE_TURNS = 500;

/** How long after a wheel, touch, key or pointer event a scroll counts as the reader's. */
const READER_GESTURE_MS = 400;
const NAVIGATION_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);
const UPWARD_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

/**
 * The conversation, virtualized (only the turns near the viewport are in the DOM). It follows new
 * content only while the reader is at the bottom; otherwise a "New messages" button appears.
 */
export function MessageList({ state, running, empty, jumpTo }: MessageListProps) {
  const { loadOlder } = usePanelActions();
  const scrollRef = useRef<HTMLDivElement>(null);
  const sizerRef = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const [unseen, setUnseen] = useState(false);
  const [marked, setMarked] = useState<number>();
  const { turnOrder, olderTurns, branches } = state;
  const onBranch = useMemo(() => new Set(pathTo(branches, branches.leaf)), [branches]);
  // Rows before `olderTurns` stand for turns not loaded yet; a loaded turn's row index is its place in the conversation.
  const turnAt = (index: number) => (index < olderTurns ? undefined : turnOrder[index - olderTurns]);
  // A turn of another branch keeps its row, empty, so that every row index stays its place in the log.
  const hidden = (turnId: string) => !onBranch.has(turnId);
  const leafPlace = branches.leaf === null ? -1 : turnOrder.indexOf(branches.leaf);
  const followedRow = leafPlace < 0 ? undefined : olderTurns + leafPlace;
  // The build runs no React Compiler, and the virtualizer's functions are called here, never handed to memoized children.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: olderTurns + turnOrder.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const turnId = turnAt(index);
      if (!turnId) return UNLOADED_TURN_PX;
      return hidden(turnId) ? 0 : estimateTurnHeight(state.turns[turnId], state);
    },
    getItemKey: (index) => turnAt(index) ?? `unloaded-${index}`,
    overscan: 3,
    // While following, the newest turn (where approvals and questions appear) is always rendered.
    rangeExtractor: (range) => rowsWith(defaultRangeExtractor(range), stuck.current ? followedRow : undefined),
  });
  // While following, every size change is answered by scrolling to the end, so the virtualizer's own correction
  // (which may move the list up) is left out; otherwise it keeps the reader's place as the virtualizer's default does.
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) => {
    if (stuck.current) return false;
    const offset = instance.scrollOffset ?? 0;
    return instance.itemSizeCache.has(item.key)
      ? item.end <= offset && instance.scrollDirection !== 'backward'
      : item.start < offset;
  };

  const scrollToBottom = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
  }, []);

  /**
   * When the reader last scrolled by hand (wheel, touch, keys, the scroll bar). Only the reader stops the list from
   * following: a position above the end says nothing by itself, since measured turns move the end and the browser
   * moves a list that got shorter, both before the list hears of it.
   */
  const readerScrolledAt = useRef(Number.NEGATIVE_INFINITY);
  const readerScrolling = () => performance.now() - readerScrolledAt.current < READER_GESTURE_MS;

  /** Whether to keep following: a scroll up that content arrived ahead of must not be undone. */
  const stillStuck = useCallback(() => {
    const element = scrollRef.current;
    if (stuck.current && element && readerScrolling() && !isNearBottom(element)) stuck.current = false;
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
    state.facts,
    follow,
  ]);

  // The end moved (rows measured): followed in the same commit, so that nothing reads the list at the old scroll.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (stillStuck()) scrollToBottom();
  }, [totalSize, scrollToBottom, stillStuck]);

  /**
   * A turn that replaced its placeholder is measured in that commit: the rows below it and the end are in their
   * places before the browser paints or a click is aimed, rather than a frame later when the resize is observed.
   * (`measureElement` would answer with the placeholder's size it measured when the row mounted.)
   */
  const measureRow = (row: VirtualItem) => {
    const element = virtualizer.elementsCache.get(row.key);
    if (element instanceof HTMLElement) virtualizer.resizeItem(row.index, element.offsetHeight);
  };

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
    readerScrolledAt.current = Number.NEGATIVE_INFINITY;
    setUnseen(false);
    setMarked(undefined);
    jumping.current = false;
  }, [state.sessionId]);

  const jumped = useRef<{ nonce: number; loaded: boolean; shown: boolean } | undefined>(undefined);
  /** From a jump to a found turn until the reader scrolls or another conversation opens. */
  const jumping = useRef(false);
  // Declared after the session's reset above, so that opening a conversation at a turn is not undone by it. A turn
  // not loaded yet is scrolled to twice: once to its placeholder (which asks for it), once more when it is loaded and
  // measured, since the turns loaded above it move it; and once more when its branch comes into view.
  useEffect(() => {
    if (!jumpTo || jumpTo.sessionId !== state.sessionId) return;
    if (jumpTo.turnPosition >= olderTurns + turnOrder.length) return;
    const loaded = jumpTo.turnPosition >= olderTurns;
    const foundTurnId = loaded ? turnOrder[jumpTo.turnPosition - olderTurns] : undefined;
    const shown = foundTurnId !== undefined && onBranch.has(foundTurnId);
    const done = jumped.current;
    if (done?.nonce === jumpTo.nonce && (done.loaded || !loaded) && (done.shown || !shown)) return;
    jumped.current = { nonce: jumpTo.nonce, loaded, shown };
    jumping.current = true;
    stuck.current = false;
    virtualizer.scrollToIndex(jumpTo.turnPosition, { align: 'start' });
    setMarked(jumpTo.turnPosition);
  }, [jumpTo, state.sessionId, olderTurns, turnOrder, onBranch, virtualizer]);

  const onScroll = () => {
    const element = scrollRef.current;
    if (!element) return;
    // A scroll to the end issued before the jump may land after it: it must not make the list follow again.
    if (jumping.current && !readerScrolling()) return;
    if (isNearBottom(element)) {
      stuck.current = true;
      setUnseen(false);
    } else if (readerScrolling()) stuck.current = false;
  };
  const onReaderScroll = () => {
    readerScrolledAt.current = performance.now();
    jumping.current = false;
  };
  /**
   * A reader heading up stops following at once: content that lands before the browser's first scroll frame would
   * otherwise scroll to the end and cancel the reader's scroll.
   */
  const onReaderHeadingUp = () => {
    onReaderScroll();
    const element = scrollRef.current;
    if (element && element.scrollTop > 0) stuck.current = false;
  };
  const onWheel = (event: WheelEvent) => (event.deltaY < 0 ? onReaderHeadingUp() : onReaderScroll());
  const onKeyDown = (event: KeyboardEvent) => {
    if (UPWARD_KEYS.has(event.key)) onReaderHeadingUp();
    else if (NAVIGATION_KEYS.has(event.key)) onReaderScroll();
  };

  const jumpToEnd = () => {
    stuck.current = true;
    readerScrolledAt.current = Number.NEGATIVE_INFINITY;
    setUnseen(false);
    if (turnOrder.length) virtualizer.scrollToIndex(olderTurns + turnOrder.length - 1, { align: 'end' });
    requestAnimationFrame(scrollToBottom);
  };

  const virtualRows = virtualizer.getVirtualItems();
  // Rows of turns not loaded yet in view: the pages up to the first of them are asked for, one at a time.
  const firstUnloaded = virtualRows.find((row) => row.index < olderTurns)?.index;
  useEffect(() => {
    const element = scrollRef.current;
    if (firstUnloaded === undefined || !element) return;
    // Rows computed before the list was moved to its end (on opening) are not in view any more: nothing to load
    // unless the last unloaded row still reaches into the view.
    const row = virtualizer.measurementsCache[olderTurns - 1];
    if (!row || row.end < element.scrollTop) return;
    // Asks for (up to this many) turns before the loaded ones (`state.olderTurns` of them are not loaded).
    loadOlder(Math.min(MAX_PAGE_TURNS, olderTurns - firstUnloaded));
  }, [firstUnloaded, olderTurns, loadOlder, virtualizer]);

  const lastTurnId = branches.leaf;
  const quiet = !running && Object.keys(state.streaming).length === 0;
  const factsByTurn = useMemo(() => groupFactsByTurn(state.facts), [state.facts]);
  const retried = useMemo(
    () => new Set(turnOrder.map((turnId) => state.turns[turnId]?.retryOf).filter(Boolean)),
    [turnOrder, state.turns],
  );
  return (
    <div className="message-list-frame">
      <div
        className="message-list"
        ref={scrollRef}
        onScroll={onScroll}
        onWheel={onWheel}
        onTouchMove={onReaderScroll}
        onPointerDown={onReaderScroll}
        onKeyDown={onKeyDown}
        tabIndex={-1}
      >
        {turnOrder.length === 0 && empty}
        <div ref={sizerRef} className="virtual-sizer" style={{ height: virtualizer.getTotalSize() }}>
          {virtualRows.map((row) => {
            const turnId = turnAt(row.index);
            const turn = turnId && !hidden(turnId) ? state.turns[turnId] : undefined;
            return (
              <div
                key={row.key}
                ref={virtualizer.measureElement}
                data-index={row.index}
                data-found={row.index === marked || undefined}
                data-off-branch={(turnId !== undefined && hidden(turnId)) || undefined}
                className="virtual-row"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                {turn && (
                  <DeferredMount
                    defer={quiet}
                    onShown={() => measureRow(row)}
                    placeholder={
                      <div
                        className="pending-turn"
                        style={{ height: estimateTurnHeight(turn, state) }}
                        aria-busy="true"
                      />
                    }
                  >
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
                      branches={branches}
                      appContexts={state.appContexts}
                    />
                    {/* With its turn, not beside the placeholder: the × would be in a place the turn then takes. */}
                    <FactNotices facts={factsByTurn.get(turn.turnId) ?? []} />
                  </DeferredMount>
                )}
                {turn &&
                  state.compactions
                    ?.filter((compaction) => compaction.throughTurnId === turn.turnId)
                    .map((compaction) => <CompactionDivider key={compaction.compactionId} compaction={compaction} />)}
                {!turnId && <div className="unloaded-turn" style={{ height: UNLOADED_TURN_PX }} aria-hidden="true" />}
              </div>
            );
          })}
        </div>
        {state.branches.rewound && <RewoundNotice rewound={state.branches.rewound} enabled={!running} />}
        <FactNotices facts={factsByTurn.get('') ?? []} />
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
