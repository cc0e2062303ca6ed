//! Edits as small as the changed lines: the old and the new text of a span
//! compared line by line (`similar`), each run of changed lines one edit.
//! Formatting and `source.fixAll.pbn` send these rather than whole games.

use std::ops::Range;
use std::time::Duration;

/// Past this, the comparison settles for a coarser (still correct) diff.
const TIMEOUT: Duration = Duration::from_millis(200);

/// The edits that turn `old` (the document's text from byte `base`) into
/// `new`: one per run of changed lines, in document order, never
/// overlapping.
pub fn line_edits(old: &str, new: &str, base: usize) -> Vec<(Range<usize>, String)> {
    if old == new {
        return Vec::new();
    }
    let diff = similar::TextDiff::configure()
        .timeout(TIMEOUT)
        .diff_lines(old, new);
    let starts = |slices: &mut dyn Iterator<Item = &str>| {
        let mut at = 0;
        let mut v = vec![0];
        for s in slices {
            at += s.len();
            v.push(at);
        }
        v
    };
    let old_at = starts(&mut diff.iter_old_slices());
    let new_at = starts(&mut diff.iter_new_slices());
    let mut out: Vec<(Range<usize>, String)> = Vec::new();
    for op in diff.ops() {
        let (tag, o, n) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            continue;
        }
        let range = base + old_at[o.start]..base + old_at[o.end];
        let text = &new[new_at[n.start]..new_at[n.end]];
        // Ops touching end to end (a delete then an insert) make one edit.
        match out.last_mut() {
            Some((r, t)) if r.end == range.start => {
                r.end = range.end;
                t.push_str(text);
            }
            _ => out.push((range, text.to_owned())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(old: &str, base: usize, edits: &[(Range<usize>, String)]) -> String {
        let mut s = old.to_owned();
        for (r, t) in edits.iter().rev() {
            s.replace_range(r.start - base..r.end - base, t);
        }
        s
    }

    #[test]
    fn only_the_changed_lines() {
        let old = "[A \"1\"]\r\n[B \"x\"]\r\n[C \"3\"]\r\n[D \"4\"]\r\n[E \"y\"]";
        let new = "[A \"1\"]\r\n[B \"2\"]\r\n[C \"3\"]\r\n[D \"4\"]\r\n[E \"5\"]\r\n[F \"6\"]";
        let edits = line_edits(old, new, 100);
        assert_eq!(
            edits,
            vec![
                (109..118, "[B \"2\"]\r\n".to_owned()),
                (136..143, "[E \"5\"]\r\n[F \"6\"]".to_owned()),
            ]
        );
        assert_eq!(apply(old, 100, &edits), new);
        assert!(line_edits(old, old, 0).is_empty());
        // Lines removed and added.
        let edits = line_edits("a\nb\nc\n", "a\nc\nd\n", 0);
        assert_eq!(apply("a\nb\nc\n", 0, &edits), "a\nc\nd\n");
        assert_eq!(edits.len(), 2);
    }
}
