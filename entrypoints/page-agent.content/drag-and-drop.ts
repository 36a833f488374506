import { hover, pointerInit } from './dispatch-input';
import { deepElementFromPoint } from './shadow-root';

type Point = { x: number; y: number };

const STEPS = 5;

const nextFrame = () => new Promise<void>((done) => setTimeout(done, 16));

/** What a person drags natively: an element marked draggable, or a link or image (draggable by default). */
function nativeDraggable(element: Element): HTMLElement | undefined {
  const marked = element.closest<HTMLElement>('[draggable]');
  if (marked) return marked.draggable ? marked : undefined;
  const byDefault = element.closest<HTMLElement>('a[href],img');
  return byDefault?.draggable ? byDefault : undefined;
}

function dragEvent(type: string, at: Point, dataTransfer: DataTransfer): DragEvent {
  return new DragEvent(type, { ...pointerInit(at.x, at.y, type === 'dragend' ? 0 : 1), dataTransfer });
}

function between(from: Point, to: Point, step: number): Point {
  return { x: from.x + ((to.x - from.x) * step) / STEPS, y: from.y + ((to.y - from.y) * step) / STEPS };
}

/**
 * A person's drag from one point to another: press on the source, move in steps (libraries wait for a few pixels
 * of movement before a drag begins), release over the target. A natively draggable source gets HTML5 drag and drop
 * instead once it moves: dragstart with a DataTransfer, dragenter and dragover on the target, drop there when a
 * dragover was cancelled (the target accepts), dragend on the source. Returns whether the drop was accepted.
 */
export async function dragAndDrop(source: Element, target: Element, from: Point, to: Point): Promise<boolean> {
  hover(source, from.x, from.y);
  source.dispatchEvent(new PointerEvent('pointerdown', pointerInit(from.x, from.y, 1)));
  source.dispatchEvent(new MouseEvent('mousedown', pointerInit(from.x, from.y, 1)));
  const draggable = nativeDraggable(source);
  if (draggable) return nativeDrag(draggable, target, from, to);
  for (let step = 1; step <= STEPS; step++) {
    await nextFrame();
    const at = between(from, to, step);
    hover(step === STEPS ? target : (deepElementFromPoint(at.x, at.y) ?? target), at.x, at.y, 1);
  }
  target.dispatchEvent(new PointerEvent('pointerup', pointerInit(to.x, to.y, 0)));
  target.dispatchEvent(new MouseEvent('mouseup', pointerInit(to.x, to.y, 0)));
  return true;
}

async function nativeDrag(source: HTMLElement, target: Element, from: Point, to: Point): Promise<boolean> {
  const start = between(from, to, 1);
  source.dispatchEvent(new PointerEvent('pointermove', pointerInit(start.x, start.y, 1)));
  source.dispatchEvent(new MouseEvent('mousemove', pointerInit(start.x, start.y, 1)));
  const dataTransfer = new DataTransfer();
  dataTransfer.effectAllowed = 'all';
  if (!source.dispatchEvent(dragEvent('dragstart', from, dataTransfer))) return false;
  // Once a native drag starts the page sees no more pointer events until it ends.
  source.dispatchEvent(new PointerEvent('pointercancel', pointerInit(start.x, start.y, 0)));
  let accepted = false;
  for (let step = 2; step <= STEPS; step++) {
    await nextFrame();
    const at = between(from, to, step);
    source.dispatchEvent(dragEvent('drag', at, dataTransfer));
    const over = step === STEPS ? target : (deepElementFromPoint(at.x, at.y) ?? target);
    if (step === 2 || step === STEPS) over.dispatchEvent(dragEvent('dragenter', at, dataTransfer));
    accepted = !over.dispatchEvent(dragEvent('dragover', at, dataTransfer));
  }
  if (accepted) target.dispatchEvent(dragEvent('drop', to, dataTransfer));
  else target.dispatchEvent(dragEvent('dragleave', to, dataTransfer));
  source.dispatchEvent(dragEvent('dragend', to, dataTransfer));
  return accepted;
}
