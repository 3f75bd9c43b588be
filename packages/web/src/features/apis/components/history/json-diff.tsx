import { json } from '@codemirror/lang-json';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';

const readOnly = [
  lineNumbers(),
  json(),
  syntaxHighlighting(defaultHighlightStyle),
  EditorState.readOnly.of(true),
  EditorView.editable.of(false),
  EditorView.theme({
    '&': { fontSize: '12px' },
    '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)' },
  }),
];

/**
 * Two JSON texts side by side (CodeMirror's merge view, loaded with this module only): the older on the
 * left, the newer on the right, unchanged stretches folded.
 */
export default function JsonDiff({
  left,
  right,
  leftLabel,
  rightLabel,
}: {
  left: string;
  right: string;
  leftLabel: string;
  rightLabel: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    // A DOM widget outside React: created for these texts, destroyed with them.
    const view = new MergeView({
      a: {
        doc: left,
        extensions: [...readOnly, EditorView.contentAttributes.of({ 'aria-label': leftLabel })],
      },
      b: {
        doc: right,
        extensions: [...readOnly, EditorView.contentAttributes.of({ 'aria-label': rightLabel })],
      },
      parent: host.current,
      collapseUnchanged: { margin: 3, minSize: 6 },
      gutter: true,
    });
    return () => view.destroy();
  }, [left, right, leftLabel, rightLabel]);
  return (
    <div
      ref={host}
      data-testid="history-diff"
      style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, overflow: 'hidden' }}
    />
  );
}
