import type { PageModal, PageViewport as WireViewport } from '../protocol/page-wire';

/** The viewport an observation saw (the wire's, with the tab's zoom); coordinates are valid only while it holds. */
export interface PageViewport {
  width: number;
  height: number;
  scrollX: number;
  scrollY: number;
  devicePixelRatio: number;
  zoom: number;
}

export interface PageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What the runtime remembers of one ref: enough to check an action and to say on an approval card what it acts on. */
export interface RefRecord {
  role: string;
  name: string;
  box: PageBox;
  frameId: number;
  checked?: boolean | 'mixed';
  /** An input's type, as observed: the page agent checks it again before acting. */
  inputType?: string;
  /** Password fields and file inputs: typing into one or choosing a file always needs approval. */
  sensitive?: 'password' | 'file';
}

export interface FrameExpectation {
  modal: PageModal;
  viewport: WireViewport;
}

/** The runtime's record of one observation, which every action quotes. */
export interface ObservationRecord {
  observationId: string;
  tabId: number;
  frameId: number;
  documentId: string;
  url: string;
  origin: string;
  title: string;
  viewport: PageViewport;
  capturedAt: number;
  refs: Record<string, RefRecord>;
  /** What the page agent checks the action against, as it reported it: the top frame's. */
  expected: FrameExpectation;
  /** The same for every frame observed, by frameId (the top frame's too). */
  frames: Record<number, FrameExpectation & { documentId: string }>;
  /** The screenshot's pixel size and how many CSS pixels one of its pixels is, when one was taken. */
  screenshot?: { width: number; height: number; cssPerPixel: number };
}
