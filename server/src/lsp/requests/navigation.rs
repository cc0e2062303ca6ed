//! Navigation between note references and notes, and along `#` inheritance:
//!
//! - `textDocument/definition`: from `=n=` to the `[Note "n:…"]` of the same
//!   section (auction or play) of the same game (§3.5.4-§3.5.5,
//!   §3.6.4-§3.6.5); from a `"#"` value to the tag it inherits (§4.8).
//! - `textDocument/references`: from a Note tag or any `=n=`, every `=n=` of
//!   that section (and the note itself with `includeDeclaration`); from a
//!   `"#"` value or the tag it inherits, every `"#"` tag resolving to it.
//! - `textDocument/documentHighlight`: the same, in this document: the
//!   note's value (or the source tag's value) as a write, the references as
//!   reads.
//! - `textDocument/prepareRename` / `rename`: renumbers a note and all its
//!   references in its section.
//!
//! Everything is found through the typed model (`Snapshot::game`; the
//! users of a `#` source through `Snapshot::for_each_piece`): the
//! note references are the `NoteRef` annotations of the section's entries
//! (and the stray ones before the first call), the notes are the section's
//! `Note` tags, whose numbers come from [`values::parse_note`].

use crate::lsp::snapshot::Snapshot;
use pbn_core::model::{values, Annotation, AnnotationKind, Game, Inherit, Source, TagRole};
use pbn_core::spec::sections::Section;
use std::collections::HashMap;
use std::ops::Range;
use tower_lsp_server::ls_types::*;

pub fn register(caps: &mut ServerCapabilities) {
    caps.definition_provider = Some(OneOf::Left(true));
    caps.references_provider = Some(OneOf::Left(true));
    caps.document_highlight_provider = Some(OneOf::Left(true));
    caps.rename_provider = Some(OneOf::Right(RenameOptions {
        prepare_provider: Some(true),
        work_done_progress_options: WorkDoneProgressOptions::default(),
    }));
}

/// A `[Note "n:…"]` of a section.
#[derive(Clone, Debug)]
pub struct NoteDecl {
    /// Index in [`Game::tags`].
    pub tag: usize,
    /// The note index (1..=32).
    pub number: u32,
    /// Byte range of the index digits in the document.
    pub number_range: Range<usize>,
    /// Byte range of the whole value (inside the quotes).
    pub value_range: Range<usize>,
    /// Byte range of the whole tag pair.
    pub tag_range: Range<usize>,
}

/// A note reference `=n=` of a section.
#[derive(Clone, Debug)]
pub struct NoteRef {
    /// `None` when the inside is not a number.
    pub number: Option<u32>,
    /// Byte range of the whole token, `=` included.
    pub range: Range<usize>,
}

impl NoteRef {
    /// Byte range between the two `=`.
    pub fn inner(&self) -> Range<usize> {
        self.range.start + 1..self.range.end.saturating_sub(1).max(self.range.start + 1)
    }
}

fn section_parts(g: &Game, section: Section) -> Option<(Vec<&Annotation>, &[usize])> {
    let (annotations, notes): (Vec<&Annotation>, &[usize]) = match section {
        Section::Auction => {
            let a = g.auction.as_ref()?;
            (
                a.stray
                    .iter()
                    .chain(a.entries.iter().flat_map(|e| e.post().iter()))
                    .collect(),
                &a.notes,
            )
        }
        Section::Play => {
            let p = g.play.as_ref()?;
            (
                p.stray
                    .iter()
                    .chain(p.entries.iter().flat_map(|e| e.post().iter()))
                    .collect(),
                &p.notes,
            )
        }
    };
    Some((annotations, notes))
}

/// The note references of a section, in document order.
pub fn section_refs(g: &Game, section: Section) -> Vec<NoteRef> {
    let Some((annotations, _)) = section_parts(g, section) else {
        return Vec::new();
    };
    let mut refs: Vec<NoteRef> = annotations
        .into_iter()
        .filter_map(|a| match a.kind {
            AnnotationKind::NoteRef(n) => Some(NoteRef {
                number: n,
                range: a.range.clone(),
            }),
            _ => None,
        })
        .collect();
    refs.sort_by_key(|r| r.range.start);
    refs
}

/// The Note tags of a section with a readable index, in document order.
pub fn section_notes(g: &Game, section: Section) -> Vec<NoteDecl> {
    let Some((_, notes)) = section_parts(g, section) else {
        return Vec::new();
    };
    notes
        .iter()
        .filter_map(|&i| {
            let tag = g.tags.get(i)?;
            let value = tag.value.as_ref()?;
            let note = values::parse_note(&value.raw).value?;
            let start = value.range.start;
            Some(NoteDecl {
                tag: i,
                number: note.index as u32,
                number_range: start + note.index_range.start..start + note.index_range.end,
                value_range: value.range.clone(),
                tag_range: tag.range.clone(),
            })
        })
        .collect()
}

/// What the cursor is on.
enum Target<'a> {
    /// A note reference with a number.
    Ref {
        game: &'a Game,
        section: Section,
        number: u32,
        range: Range<usize>,
    },
    /// A Note tag of a section.
    Note {
        game: &'a Game,
        section: Section,
        decl: NoteDecl,
    },
    /// A tag value that takes part in `#` inheritance: the `#` itself
    /// (`is_hash`) or a real value some `#` tag resolves to.
    Inheritance {
        game: &'a Game,
        tag: usize,
        is_hash: bool,
    },
}

fn contains(r: &Range<usize>, offset: usize) -> bool {
    r.start <= offset && offset <= r.end
}

fn target_at(snap: &Snapshot, offset: usize) -> Option<Target<'_>> {
    let game = snap.game_at(offset)?;
    for section in [Section::Auction, Section::Play] {
        for r in section_refs(game, section) {
            if contains(&r.range, offset) {
                return Some(Target::Ref {
                    game,
                    section,
                    number: r.number?,
                    range: r.range,
                });
            }
        }
        for decl in section_notes(game, section) {
            if contains(&decl.tag_range, offset) {
                return Some(Target::Note {
                    game,
                    section,
                    decl,
                });
            }
        }
    }
    let (t, tag) = game
        .tags
        .iter()
        .enumerate()
        .find(|(_, t)| contains(&t.range, offset))?;
    if matches!(tag.role, TagRole::AuctionNote | TagRole::PlayNote) {
        return None;
    }
    if tag.inherit == Inherit::Previous {
        return Some(Target::Inheritance {
            game,
            tag: t,
            is_hash: true,
        });
    }
    Some(Target::Inheritance {
        game,
        tag: t,
        is_hash: false,
    })
}

fn location(snap: &Snapshot, r: Range<usize>) -> Location {
    Location {
        uri: snap.uri.clone(),
        range: snap.converter().range(r),
    }
}

/// The tag a `#` value inherits from (§4.8).
fn inherit_source(game: &Game, tag: usize) -> Option<Source> {
    let t = game.tags.get(tag)?;
    match (&t.inherit, t.resolved.as_deref()) {
        (Inherit::Previous, Some((_, Some(src)))) => Some(src.clone()),
        _ => None,
    }
}

/// For an inheritance target: the source tag and every `#` tag resolving
/// to it (as (game, tag) pairs). `None` when the tag takes no part in any
/// inheritance.
fn inheritance_group(
    snap: &Snapshot,
    game: &Game,
    tag: usize,
    is_hash: bool,
) -> Option<(Source, Vec<Source>)> {
    let source = if is_hash {
        inherit_source(game, tag)?
    } else {
        Source {
            game: game.index,
            tag,
        }
    };
    let mut users = Vec::new();
    let done = snap.for_each_piece(|games, _| {
        for g in games {
            for t in 0..g.tags.len() {
                if inherit_source(g, t).as_ref() == Some(&source) {
                    users.push(Source {
                        game: g.index,
                        tag: t,
                    });
                }
            }
        }
    });
    if !done || users.is_empty() {
        return None;
    }
    Some((source, users))
}

fn tag_range(snap: &Snapshot, src: &Source) -> Option<Range<usize>> {
    Some(snap.game(src.game)?.tags.get(src.tag)?.range.clone())
}

fn tag_value_range(snap: &Snapshot, src: &Source) -> Option<Range<usize>> {
    let t = snap.game(src.game)?.tags.get(src.tag)?;
    Some(
        t.value
            .as_ref()
            .map_or(t.range.clone(), |v| v.range.clone()),
    )
}

pub fn definition(snap: &Snapshot, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let offset = snap
        .converter()
        .offset(params.text_document_position_params.position);
    match target_at(snap, offset)? {
        Target::Ref {
            game,
            section,
            number,
            ..
        } => {
            let decl = section_notes(game, section)
                .into_iter()
                .find(|d| d.number == number)?;
            Some(GotoDefinitionResponse::Scalar(location(
                snap,
                decl.tag_range,
            )))
        }
        Target::Note { decl, .. } => Some(GotoDefinitionResponse::Scalar(location(
            snap,
            decl.tag_range,
        ))),
        Target::Inheritance {
            game,
            tag,
            is_hash: true,
        } => {
            let src = inherit_source(game, tag)?;
            Some(GotoDefinitionResponse::Scalar(location(
                snap,
                tag_range(snap, &src)?,
            )))
        }
        Target::Inheritance { is_hash: false, .. } => None,
    }
}

/// The section, number and game of a note target.
fn note_of<'a>(target: &Target<'a>) -> Option<(&'a Game, Section, u32)> {
    match target {
        Target::Ref {
            game,
            section,
            number,
            ..
        } => Some((game, *section, *number)),
        Target::Note {
            game,
            section,
            decl,
        } => Some((game, *section, decl.number)),
        Target::Inheritance { .. } => None,
    }
}

pub fn references(snap: &Snapshot, params: ReferenceParams) -> Option<Vec<Location>> {
    let offset = snap
        .converter()
        .offset(params.text_document_position.position);
    let include_declaration = params.context.include_declaration;
    let target = target_at(snap, offset)?;
    let mut out = Vec::new();
    if let Some((game, section, number)) = note_of(&target) {
        if include_declaration {
            for d in section_notes(game, section)
                .into_iter()
                .filter(|d| d.number == number)
            {
                out.push(location(snap, d.tag_range));
            }
        }
        for r in section_refs(game, section)
            .into_iter()
            .filter(|r| r.number == Some(number))
        {
            out.push(location(snap, r.range));
        }
        return Some(out);
    }
    let Target::Inheritance { game, tag, is_hash } = target else {
        return None;
    };
    let (source, users) = inheritance_group(snap, game, tag, is_hash)?;
    if include_declaration {
        out.push(location(snap, tag_range(snap, &source)?));
    }
    for u in &users {
        out.extend(tag_range(snap, u).map(|r| location(snap, r)));
    }
    Some(out)
}

pub fn highlight(
    snap: &Snapshot,
    params: DocumentHighlightParams,
) -> Option<Vec<DocumentHighlight>> {
    let conv = snap.converter();
    let offset = conv.offset(params.text_document_position_params.position);
    let target = target_at(snap, offset)?;
    let mut out = Vec::new();
    let mut push = |r: Range<usize>, kind| {
        out.push(DocumentHighlight {
            range: conv.range(r),
            kind: Some(kind),
        })
    };
    if let Some((game, section, number)) = note_of(&target) {
        for d in section_notes(game, section)
            .into_iter()
            .filter(|d| d.number == number)
        {
            push(d.value_range, DocumentHighlightKind::WRITE);
        }
        for r in section_refs(game, section)
            .into_iter()
            .filter(|r| r.number == Some(number))
        {
            push(r.range, DocumentHighlightKind::READ);
        }
        return Some(out);
    }
    let Target::Inheritance { game, tag, is_hash } = target else {
        return None;
    };
    let (source, users) = inheritance_group(snap, game, tag, is_hash)?;
    push(
        tag_value_range(snap, &source)?,
        DocumentHighlightKind::WRITE,
    );
    for u in &users {
        if let Some(r) = tag_value_range(snap, u) {
            push(r, DocumentHighlightKind::READ);
        }
    }
    Some(out)
}

/// What can be renamed at `offset`: a note reference (its number) or the
/// number of a Note tag value. Returns the section, the number and the
/// byte range of the digits under the cursor.
fn rename_site(snap: &Snapshot, offset: usize) -> Option<(&Game, Section, u32, Range<usize>)> {
    match target_at(snap, offset)? {
        Target::Ref {
            game,
            section,
            number,
            range,
        } => {
            let r = NoteRef {
                number: Some(number),
                range,
            };
            Some((game, section, number, r.inner()))
        }
        Target::Note {
            game,
            section,
            decl,
        } if contains(&decl.number_range, offset) => {
            Some((game, section, decl.number, decl.number_range))
        }
        _ => None,
    }
}

pub fn prepare_rename(
    snap: &Snapshot,
    params: TextDocumentPositionParams,
) -> Option<PrepareRenameResponse> {
    let conv = snap.converter();
    let (_, _, _, range) = rename_site(snap, conv.offset(params.position))?;
    Some(PrepareRenameResponse::Range(conv.range(range)))
}

/// Reads a new note number: 1..=32, digits only (white space around is
/// ignored).
fn parse_number(name: &str) -> Option<u32> {
    let s = name.trim();
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<u32>().ok().filter(|n| (1..=32).contains(n))
}

/// Renumbers a note and every reference to it in its section. `None`
/// when the cursor is on no note number; an error message for a new name
/// that is not a number 1..32 or that another note (or reference) of the
/// section already uses, naming what holds it (the client shows it).
pub fn rename(snap: &Snapshot, params: RenameParams) -> Option<Result<WorkspaceEdit, String>> {
    let conv = snap.converter();
    let offset = conv.offset(params.text_document_position.position);
    let (game, section, old, _) = rename_site(snap, offset)?;
    let Some(new) = parse_number(&params.new_name) else {
        return Some(Err(format!(
            "`{}` is not a note number: notes are numbered 1 to 32 (§3.5.4)",
            params.new_name.trim()
        )));
    };
    let notes = section_notes(game, section);
    let refs = section_refs(game, section);
    if new != old {
        if let Some(msg) = number_taken(snap, &notes, &refs, new) {
            return Some(Err(msg));
        }
    }
    let text = new.to_string();
    let mut edits: Vec<(Range<usize>, TextEdit)> = Vec::new();
    for d in notes.iter().filter(|d| d.number == old) {
        edits.push((
            d.number_range.clone(),
            TextEdit {
                range: conv.range(d.number_range.clone()),
                new_text: text.clone(),
            },
        ));
    }
    for r in refs.iter().filter(|r| r.number == Some(old)) {
        edits.push((
            r.inner(),
            TextEdit {
                range: conv.range(r.inner()),
                new_text: text.clone(),
            },
        ));
    }
    edits.sort_by_key(|(r, _)| r.start);
    let mut changes = HashMap::new();
    changes.insert(
        snap.uri.clone(),
        edits.into_iter().map(|(_, e)| e).collect(),
    );
    Some(Ok(WorkspaceEdit {
        changes: Some(changes),
        document_changes: None,
        change_annotations: None,
    }))
}

/// Why `new` cannot be a note's number: the Note tag that holds it (its
/// text and line), else the reference that uses it; `None` when it is free.
fn number_taken(snap: &Snapshot, notes: &[NoteDecl], refs: &[NoteRef], new: u32) -> Option<String> {
    let text = &snap.source.text;
    let line = |offset: usize| snap.converter().position(offset).line + 1;
    if let Some(d) = notes.iter().find(|d| d.number == new) {
        let tag = text.get(d.tag_range.clone()).unwrap_or("");
        let shown: String = if tag.chars().count() > 60 {
            tag.chars().take(59).chain(['…']).collect()
        } else {
            tag.to_string()
        };
        return Some(format!(
            "note {new} is already taken by {shown} on line {}: renumber or remove that note first",
            line(d.tag_range.start)
        ));
    }
    let r = refs.iter().find(|r| r.number == Some(new))?;
    Some(format!(
        "note {new} is already used by the reference ={new}= on line {} (which has no Note tag): choose another number",
        line(r.range.start)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::requests::tests_common::snapshot as snap;
    use crate::lsp::snapshot::Snapshot;

    /// The position of the `nth` (0-based) occurrence of `needle`, plus
    /// `delta` bytes.
    fn pos(s: &Snapshot, needle: &str, nth: usize, delta: usize) -> Position {
        let off = s
            .source
            .text
            .match_indices(needle)
            .nth(nth)
            .unwrap_or_else(|| panic!("{needle:?} #{nth}"))
            .0
            + delta;
        s.converter().position(off)
    }

    fn tdp(s: &Snapshot, p: Position) -> TextDocumentPositionParams {
        TextDocumentPositionParams {
            text_document: TextDocumentIdentifier { uri: s.uri.clone() },
            position: p,
        }
    }

    /// The text a range covers, for readable snapshots.
    fn text_of(s: &Snapshot, r: tower_lsp_server::ls_types::Range) -> String {
        s.source.text[s.converter().byte_range(r)].to_string()
    }

    const DOC: &str = "\
[Event \"Club\"]
[Board \"1\"]
[Dealer \"N\"]
[Auction \"N\"]
1NT =1= Pass 2C =2= Pass
2D =1= Pass 2NT AP
[Note \"1:transfer or relay\"]
[Note \"2:Stayman\"]
[Play \"E\"]
S2 =1= SA S3 S4
[Note \"1:fourth best\"]

[Event \"#\"]
[Board \"2\"]
[Auction \"E\"]
1S =1= AP
[Note \"1:five cards\"]
";

    fn def(s: &Snapshot, p: Position) -> Option<GotoDefinitionResponse> {
        definition(
            s,
            GotoDefinitionParams {
                text_document_position_params: tdp(s, p),
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
            },
        )
    }

    fn def_text(s: &Snapshot, p: Position) -> Option<String> {
        match def(s, p)? {
            GotoDefinitionResponse::Scalar(l) => Some(format!(
                "{}:{} {}",
                l.range.start.line,
                l.range.start.character,
                text_of(s, l.range)
            )),
            other => Some(format!("{other:?}")),
        }
    }

    #[test]
    fn definition_from_note_ref_lands_on_its_note() {
        let s = snap(DOC);
        // =1= after 1NT (auction) → the auction's Note 1.
        assert_eq!(
            def_text(&s, pos(&s, "=1=", 0, 1)).as_deref(),
            Some("6:0 [Note \"1:transfer or relay\"]")
        );
        // At either edge of the token too.
        assert_eq!(
            def_text(&s, pos(&s, "=1=", 1, 0)).as_deref(),
            Some("6:0 [Note \"1:transfer or relay\"]")
        );
        assert_eq!(
            def_text(&s, pos(&s, "=2=", 0, 3)).as_deref(),
            Some("7:0 [Note \"2:Stayman\"]")
        );
        // =1= in the play → the play's Note 1, not the auction's.
        assert_eq!(
            def_text(&s, pos(&s, "=1=", 2, 1)).as_deref(),
            Some("10:0 [Note \"1:fourth best\"]")
        );
        // Second game: its own note.
        assert_eq!(
            def_text(&s, pos(&s, "=1=", 3, 1)).as_deref(),
            Some("16:0 [Note \"1:five cards\"]")
        );
        // Nothing on a call.
        assert_eq!(def(&s, pos(&s, "Pass", 0, 1)), None);
        insta::assert_json_snapshot!(def(&s, pos(&s, "=1=", 0, 1)));
    }

    #[test]
    fn definition_of_hash_goes_to_the_inherited_tag() {
        let s = snap(DOC);
        assert_eq!(
            def_text(&s, pos(&s, "\"#\"", 0, 1)).as_deref(),
            Some("0:0 [Event \"Club\"]")
        );
        // Nothing on an ordinary value.
        assert_eq!(def(&s, pos(&s, "Club", 0, 1)), None);
        // A `#` with nothing to inherit.
        let s2 = snap("[Event \"#\"]\n");
        assert_eq!(def(&s2, pos(&s2, "#", 0, 0)), None);
    }

    #[test]
    fn dangling_reference_has_no_definition() {
        let s = snap("[Auction \"N\"]\n1C =3= AP\n[Note \"1:x\"]\n");
        assert_eq!(def(&s, pos(&s, "=3=", 0, 1)), None);
    }

    fn refs(s: &Snapshot, p: Position, include_declaration: bool) -> Option<Vec<String>> {
        let r = references(
            s,
            ReferenceParams {
                text_document_position: tdp(s, p),
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
                context: ReferenceContext {
                    include_declaration,
                },
            },
        )?;
        Some(
            r.into_iter()
                .map(|l| {
                    format!(
                        "{}:{} {}",
                        l.range.start.line,
                        l.range.start.character,
                        text_of(s, l.range)
                    )
                })
                .collect(),
        )
    }

    #[test]
    fn references_of_a_note() {
        let s = snap(DOC);
        // From a reference: both =1= of the auction, not the play's.
        insta::assert_json_snapshot!(refs(&s, pos(&s, "=1=", 0, 1), true), @r#"
        [
          "6:0 [Note \"1:transfer or relay\"]",
          "4:4 =1=",
          "5:3 =1="
        ]
        "#);
        // From the note tag, without the declaration.
        insta::assert_json_snapshot!(refs(&s, pos(&s, "transfer", 0, 0), false), @r#"
        [
          "4:4 =1=",
          "5:3 =1="
        ]
        "#);
        // Play section note.
        insta::assert_json_snapshot!(refs(&s, pos(&s, "fourth", 0, 0), true), @r#"
        [
          "10:0 [Note \"1:fourth best\"]",
          "9:3 =1="
        ]
        "#);
        assert_eq!(refs(&s, pos(&s, "2NT", 0, 1), true), None);
    }

    #[test]
    fn references_of_an_inherited_tag() {
        let s = snap(DOC);
        let expected = Some(vec![
            "0:0 [Event \"Club\"]".to_string(),
            "12:0 [Event \"#\"]".to_string(),
        ]);
        assert_eq!(refs(&s, pos(&s, "Club", 0, 0), true), expected);
        assert_eq!(refs(&s, pos(&s, "\"#\"", 0, 1), true), expected);
        assert_eq!(
            refs(&s, pos(&s, "\"#\"", 0, 1), false),
            Some(vec!["12:0 [Event \"#\"]".to_string()])
        );
        // Board 1 is not inherited by anything.
        assert_eq!(refs(&s, pos(&s, "\"1\"", 0, 1), true), None);
    }

    fn hl(s: &Snapshot, p: Position) -> Option<Vec<String>> {
        let r = highlight(
            s,
            DocumentHighlightParams {
                text_document_position_params: tdp(s, p),
                work_done_progress_params: Default::default(),
                partial_result_params: Default::default(),
            },
        )?;
        Some(
            r.into_iter()
                .map(|h| {
                    format!(
                        "{:?} {}:{} {}",
                        h.kind.unwrap(),
                        h.range.start.line,
                        h.range.start.character,
                        text_of(s, h.range)
                    )
                })
                .collect(),
        )
    }

    #[test]
    fn highlight_of_a_note() {
        let s = snap(DOC);
        insta::assert_json_snapshot!(hl(&s, pos(&s, "=2=", 0, 2)), @r#"
        [
          "Write 7:7 2:Stayman",
          "Read 4:16 =2="
        ]
        "#);
        insta::assert_json_snapshot!(hl(&s, pos(&s, "=1=", 1, 1)), @r#"
        [
          "Write 6:7 1:transfer or relay",
          "Read 4:4 =1=",
          "Read 5:3 =1="
        ]
        "#);
        insta::assert_json_snapshot!(hl(&s, pos(&s, "\"#\"", 0, 1)), @r#"
        [
          "Write 0:8 Club",
          "Read 12:8 #"
        ]
        "#);
    }

    #[test]
    fn prepare_rename_only_on_numbers() {
        let s = snap(DOC);
        let pr = |p| {
            prepare_rename(&s, tdp(&s, p)).map(|r| match r {
                PrepareRenameResponse::Range(r) => text_of(&s, r),
                other => format!("{other:?}"),
            })
        };
        assert_eq!(pr(pos(&s, "=1=", 0, 1)).as_deref(), Some("1"));
        assert_eq!(pr(pos(&s, "=1=", 0, 0)).as_deref(), Some("1"));
        assert_eq!(pr(pos(&s, "\"1:transfer", 0, 1)).as_deref(), Some("1"));
        assert_eq!(pr(pos(&s, "\"1:transfer", 0, 2)).as_deref(), Some("1"));
        // Not on the note text, not on the tag name, not on a call.
        assert_eq!(pr(pos(&s, "transfer", 0, 2)), None);
        assert_eq!(pr(pos(&s, "Note", 0, 1)), None);
        assert_eq!(pr(pos(&s, "1NT", 0, 1)), None);
        assert_eq!(pr(pos(&s, "\"#\"", 0, 1)), None);
        insta::assert_json_snapshot!(prepare_rename(&s, tdp(&s, pos(&s, "=2=", 0, 1))));
    }

    fn ren_result(
        s: &Snapshot,
        p: Position,
        new_name: &str,
    ) -> Option<Result<WorkspaceEdit, String>> {
        rename(
            s,
            RenameParams {
                text_document_position: tdp(s, p),
                new_name: new_name.into(),
                work_done_progress_params: Default::default(),
            },
        )
    }

    fn ren(s: &Snapshot, p: Position, new_name: &str) -> Option<WorkspaceEdit> {
        ren_result(s, p, new_name).and_then(Result::ok)
    }

    fn ren_err(s: &Snapshot, p: Position, new_name: &str) -> String {
        match ren_result(s, p, new_name) {
            Some(Err(msg)) => msg,
            other => panic!("renaming to {new_name:?} should fail: {other:?}"),
        }
    }

    /// Applies a workspace edit to the snapshot's text.
    fn apply(s: &Snapshot, e: &WorkspaceEdit) -> String {
        let mut edits: Vec<_> = e.changes.as_ref().unwrap()[&s.uri]
            .iter()
            .map(|t| (s.converter().byte_range(t.range), t.new_text.clone()))
            .collect();
        edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        let mut out = s.source.text.clone();
        for (r, t) in edits {
            out.replace_range(r, &t);
        }
        out
    }

    #[test]
    fn rename_renumbers_note_and_references_in_its_section_only() {
        let s = snap(DOC);
        let e = ren(&s, pos(&s, "=1=", 0, 1), "5").unwrap();
        insta::assert_json_snapshot!(e);
        insta::assert_snapshot!(apply(&s, &e));
        // From the note's number: the same edit.
        assert_eq!(ren(&s, pos(&s, "\"1:transfer", 0, 1), "5"), Some(e));
        // The play note.
        let e = ren(&s, pos(&s, "\"1:fourth", 0, 2), " 7 ").unwrap();
        let after = apply(&s, &e);
        assert!(
            after.contains("S2 =7= SA")
                && after.contains("[Note \"7:fourth best\"]")
                && after.contains("1NT =1="),
            "{after}"
        );
    }

    #[test]
    fn rename_rejects_bad_or_taken_numbers() {
        let s = snap(DOC);
        let p = pos(&s, "=1=", 0, 1);
        let taken = ren_err(&s, p, "2");
        let holder = s
            .source
            .text
            .lines()
            .position(|l| l.starts_with("[Note \"2:"))
            .unwrap()
            + 1;
        assert!(
            taken.starts_with("note 2 is already taken by [Note \"2:")
                && taken.contains(&format!("on line {holder}")),
            "{taken}"
        );
        for bad in ["0", "33", "x", "-3"] {
            assert!(ren_err(&s, p, bad).contains("numbered 1 to 32"), "{bad}");
        }
        assert!(
            ren_result(&s, pos(&s, "transfer", 0, 1), "5").is_none(),
            "not on the number"
        );
        // A number used only by a dangling reference is taken too.
        let s = snap("[Auction \"N\"]\n1C =1= 1D =4= AP\n[Note \"1:x\"]\n");
        assert_eq!(
            ren_err(&s, pos(&s, "=1=", 0, 1), "4"),
            "note 4 is already used by the reference =4= on line 2 (which has no Note tag): choose another number"
        );
        // Same number: a no-op edit.
        let e = ren(&s, pos(&s, "=1=", 0, 1), "1").unwrap();
        assert_eq!(apply(&s, &e), s.source.text);
    }

    #[test]
    fn rename_in_utf16_positions_after_non_ascii() {
        let s = snap("[Event \"Zürich ♠\"]\n[Auction \"N\"]\n1C =1= { é } AP\n[Note \"1:è\"]\n");
        let e = ren(&s, pos(&s, "=1=", 0, 1), "3").unwrap();
        assert_eq!(
            apply(&s, &e),
            "[Event \"Zürich ♠\"]\n[Auction \"N\"]\n1C =3= { é } AP\n[Note \"3:è\"]\n"
        );
    }

    #[test]
    fn capabilities() {
        let mut caps = ServerCapabilities::default();
        register(&mut caps);
        insta::assert_json_snapshot!(caps);
    }
}
