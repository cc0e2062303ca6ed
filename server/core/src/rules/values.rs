//! PBN03xx/PBN04xx: tag values with a syntax (§3.4, §4, §5.2), through the
//! parsers of `model::values`.

use super::GameCtx;
use crate::diagnostic::Diagnostic;
use crate::model::values::{check_table_cell, parse_columns, parse_for_tag, parse_note};
use crate::model::Inherit;

pub fn check(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    let mut seen: super::FastSet<&str> =
        super::FastSet::with_capacity_and_hasher(g.tags.len(), Default::default());
    for tag in &g.tags {
        let Some(v) = &tag.value else { continue };
        if tag.name == "Note" {
            for issue in parse_note(&v.raw).issues {
                ctx.push(out, issue.to_diagnostic(v.range.start));
            }
            continue;
        }
        if seen.contains(&tag.name.as_str()) {
            continue; // a repeated tag is ignored (§3.4)
        }
        seen.insert(&tag.name);
        let (raw, start) = match &tag.inherit {
            Inherit::None => (v.raw.as_str(), v.range.start),
            // `##text`: the text is the value (§4.8); `#`: checked at its source.
            Inherit::Header => (&v.raw[2..], v.range.start + 2),
            Inherit::Previous => continue,
        };
        if let Some(issues) = parse_for_tag(&tag.name, raw) {
            for issue in issues {
                ctx.push(out, issue.to_diagnostic(start));
            }
        }
    }
    // Table cells against their columns (§5.2).
    for s in &g.sections {
        if s.tag == usize::MAX {
            continue;
        }
        let tag = &g.tags[s.tag];
        let Some(v) = &tag.value else { continue };
        if !crate::model::values::is_table_tag(&tag.name) {
            continue;
        }
        let Some(columns) = parse_columns(&v.raw).value else {
            continue;
        };
        if columns.is_empty() {
            continue;
        }
        for (i, e) in s.elements.iter().enumerate() {
            let col = &columns[i % columns.len()];
            if let Some(issue) = check_table_cell(&tag.name, &col.name, &e.text) {
                // Cell issues are relative to the element text; strings start
                // one byte after their quote, and their text is unescaped
                // (`\"`, `\\`, §3.2): offsets are mapped back to the text as
                // written (an unmapped range once split a character).
                let start = e.range.start + usize::from(e.quoted);
                let issue = if e.quoted {
                    let raw = &ctx.text[start..e.range.end];
                    issue.mapped(|o| crate::model::raw_offset(raw, o))
                } else {
                    issue
                };
                ctx.push(out, issue.to_diagnostic(start));
            }
        }
    }
}
