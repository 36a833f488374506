/** One node of a frame's accessibility tree, as the content script builds it and the renderer prints it. */
export interface PageTreeNode {
  /** An ARIA role, or `text` for a run of text. */
  role: string;
  name: string;
  ref?: string;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  expanded?: boolean;
  level?: number;
  pressed?: boolean | 'mixed';
  selected?: boolean;
  value?: string;
  url?: string;
  /** A lone text child printed on the node's own line: `- paragraph: Some words`. */
  text?: string;
  /** Has a ref because it behaves as clickable (listener, `onclick`, pointer cursor, tabindex), not by its role. */
  clickable?: boolean;
  /** Text or a name a sighted user cannot see. */
  hiddenText?: boolean;
  /** Any part of the node's box is inside the viewport. */
  inViewport: boolean;
  children: PageTreeNode[];
}
