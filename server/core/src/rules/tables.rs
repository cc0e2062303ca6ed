//! PBN08xx: supplemental sections and tables (§5). Column specifications
//! and cell formats are parsed by `model::values`.

use super::GameCtx;
use crate::codes::tables as c;
use crate::diagnostic::Diagnostic;
use crate::model::{CallToken, CardToken, CommentKind};

pub fn check(ctx: &GameCtx<'_>, out: &mut Vec<Diagnostic>) {
    let g = ctx.game;
    for s in &g.sections {
        if s.tag == usize::MAX {
            continue;
        }
        let tag = &g.tags[s.tag];
        // §5.1: no commentary after a section element.
        if let Some(first) = s.elements.first() {
            // The section's data runs to the next tag (trailing comments are
            // not inside the section node).
            let end = g
                .tags
                .iter()
                .map(|t| t.range.start)
                .filter(|&p| p > first.range.start)
                .min()
                .unwrap_or(g.range.end);
            for cm in &g.comments {
                if cm.kind != CommentKind::Escape
                    && cm.range.start > first.range.start
                    && cm.range.start < end
                {
                    ctx.push(out, Diagnostic::new(
                        &c::COMMENT_IN_SECTION,
                        cm.range.start..cm.range.start + 1,
                        "comment after a section element; only the tag pair of a section may be followed by commentary (§5.1)",
                    ));
                }
            }
        }
        let Some(value) = &tag.value else { continue };
        if !matches!(
            tag.name.as_str(),
            "ActionTable"
                | "AuctionTimeTable"
                | "InstantScoreTable"
                | "OptimumPlayTable"
                | "OptimumResultTable"
                | "PlayTimeTable"
                | "ScoreTable"
                | "TotalScoreTable"
        ) {
            continue;
        }
        let columns = value.text.split(';').count().max(1);
        let n = s.elements.len();
        if n % columns != 0 {
            let last = &s.elements[n - n % columns];
            ctx.push(out, Diagnostic::new(
                &c::TABLE_ELEMENT_COUNT,
                last.range.start..s.elements[n - 1].range.end,
                format!(
                    "{n} elements do not fill rows of {columns} columns: the last row has {} (§5.2; use `?` for unknown and `-` for irrelevant elements)",
                    n % columns
                ),
            ));
        }
        let rows = n / columns;
        // §5.4 / §5.8: time tables need their section, one row per call/card.
        let (needs, count, label) = match tag.name.as_str() {
            "AuctionTimeTable" => (
                "Auction",
                g.auction.as_ref().map(|a| {
                    a.entries
                        .iter()
                        .filter(|e| {
                            !matches!(
                                e.token,
                                CallToken::Dash | CallToken::Terminator | CallToken::Continuation
                            )
                        })
                        .count()
                }),
                "calls",
            ),
            "PlayTimeTable" => (
                "Play",
                g.play.as_ref().map(|p| {
                    p.entries
                        .iter()
                        .filter(|e| matches!(e.token, CardToken::Card(_)))
                        .count()
                }),
                "cards",
            ),
            _ => continue,
        };
        let section_before = match needs {
            "Auction" => g
                .auction
                .as_ref()
                .is_some_and(|a| a.range.start < s.range.start),
            _ => g
                .play
                .as_ref()
                .is_some_and(|p| p.range.start < s.range.start),
        };
        if !section_before {
            ctx.push(
                out,
                Diagnostic::new(
                    &c::TABLE_NEEDS_SECTION,
                    tag.range.clone(),
                    format!(
                        "an {needs} section must be given before the {} (§5.4, §5.8)",
                        tag.name
                    ),
                ),
            );
        } else if let Some(count) = count {
            if count != rows && n % columns == 0 {
                ctx.push(out, Diagnostic::new(
                    &c::TABLE_ROW_COUNT,
                    tag.range.clone(),
                    format!("{} has {rows} rows but the {} section has {count} {label}; each row times one of them, in order (§5.4, §5.8)", tag.name, needs),
                ));
            }
        }
    }
}
