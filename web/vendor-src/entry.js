// What web/app.js takes from CodeMirror 6; bundled by ./bundle.sh into
// ../vendor/codemirror.js (committed, so building the page needs no npm).
export {
  EditorState,
  StateField,
  StateEffect,
  RangeSetBuilder,
  Transaction,
} from "@codemirror/state";
export {
  EditorView,
  Decoration,
  ViewPlugin,
  keymap,
  hoverTooltip,
  lineNumbers,
  highlightActiveLine,
  highlightActiveLineGutter,
  drawSelection,
} from "@codemirror/view";
export { history, defaultKeymap, historyKeymap } from "@codemirror/commands";
