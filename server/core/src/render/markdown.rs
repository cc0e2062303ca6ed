//! The compact deal diagram of the editor hover: a title with board, dealer
//! and vulnerability, then the 12-line diagram of [`super::text::diagram`]
//! in a code block (fits a 900-pixel-high window).

use super::text::{diagram, Style};
use super::Record;

/// The Markdown of the deal of `r`.
pub fn deal(r: &Record) -> String {
    let mut title = format!("**{}**", r.title());
    let sub = r.subtitle();
    if !sub.is_empty() {
        title = format!("{title} · {sub}");
    }
    let mut md = format!(
        "{title} (§3.4.11)\n\n```text\n{}\n```",
        diagram(r, Style { color: false }).join("\n")
    );
    if let Some(n) = r.end_position {
        md.push_str(&format!("\n\nEnd position: {n} cards per hand (§3.10)."));
    }
    let missing: Vec<&str> = crate::bridge::Seat::ALL
        .into_iter()
        .filter(|s| r.hands[*s as usize].is_none())
        .map(crate::bridge::seat_name)
        .collect();
    if !missing.is_empty() && missing.len() < 4 {
        md.push_str(&format!("\n\nNot given: {}.", missing.join(", ")));
    }
    md
}
