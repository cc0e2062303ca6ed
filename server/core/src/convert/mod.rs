//! Conversions between PBN and other bridge formats: RBN 2.2 ([`rbn`]),
//! BBO's LIN ([`lin`]) and forum notation ([`forum`], write only).
//!
//! PBN is the pivot: a reader turns its format into PBN text (import format,
//! then written in export format by [`crate::format`]), a writer reads PBN
//! through the typed model ([`crate::model::typed`]) and writes its format.
//! `convert(RBN → LIN)` is RBN → PBN → LIN. Readers are liberal and report
//! what they could not read as [`ReadDiagnostic`]s; writers report what the
//! target cannot hold as [`Loss`]es, per game. Nothing is dropped silently.

pub mod forum;
pub mod lin;
pub mod rbn;

use std::ops::Range;

use crate::codes::Severity;

/// A format `pbn convert` reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Pbn,
    Rbn,
    Lin,
    /// Forum notation (`[hand …]`, `[bidding …]`): written, never read.
    Forum,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Pbn, Format::Rbn, Format::Lin, Format::Forum];

    /// The name used by `--from`/`--to` and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pbn => "pbn",
            Format::Rbn => "rbn",
            Format::Lin => "lin",
            Format::Forum => "forum",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The format a file name's extension stands for (`.pbn`, `.rbn`,
    /// `.lin`, `.txt`/`.forum` for forum notation).
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = path.rsplit_once('.')?.1;
        match ext.to_ascii_lowercase().as_str() {
            "pbn" => Some(Format::Pbn),
            "rbn" => Some(Format::Rbn),
            "lin" => Some(Format::Lin),
            "forum" | "txt" => Some(Format::Forum),
            _ => None,
        }
    }

    pub fn can_read(self) -> bool {
        self != Format::Forum
    }
}

/// A problem met while reading a source format: a byte range of the input
/// (the CLI turns it into line and column) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadDiagnostic {
    pub severity: Severity,
    pub range: Range<usize>,
    pub message: String,
}

/// Something of one game the target format cannot hold (reported on
/// stderr per game by `pbn convert`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// 0-based game (board) index in the input.
    pub game: usize,
    pub what: String,
}

/// The result of one conversion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    pub text: String,
    /// What the reader could not read (empty when the source is PBN).
    pub diagnostics: Vec<ReadDiagnostic>,
    /// What the writer could not carry.
    pub losses: Vec<Loss>,
}

/// Converts `input` (decoded text) from one format to another through PBN.
/// Reading forum notation is refused with one diagnostic.
pub fn convert(input: &str, from: Format, to: Format) -> Converted {
    let mut read = match from {
        Format::Pbn => Converted {
            text: input.to_string(),
            ..Converted::default()
        },
        Format::Rbn => rbn::to_pbn(input),
        Format::Lin => lin::to_pbn(input),
        Format::Forum => {
            return Converted {
                diagnostics: vec![ReadDiagnostic {
                    severity: Severity::Error,
                    range: 0..0,
                    message: "forum notation is written, not read".into(),
                }],
                ..Converted::default()
            }
        }
    };
    let written = match to {
        Format::Pbn => return read,
        Format::Rbn => rbn::from_pbn(&read.text),
        Format::Lin => lin::from_pbn(&read.text),
        Format::Forum => forum::from_pbn(&read.text),
    };
    read.text = written.text;
    read.diagnostics.extend(written.diagnostics);
    read.losses.extend(written.losses);
    read
}
