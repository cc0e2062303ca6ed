//! `textDocument/publishDiagnostics`: exactly what `pbn check` reports
//! (same code path), with the code, related information and the
//! `Unnecessary` tag for unused notes.

use crate::diagnostic::Severity;
use crate::lsp::snapshot::Snapshot;
use tower_lsp_server::ls_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location, NumberOrString,
};

pub fn to_lsp(snap: &Snapshot) -> Vec<Diagnostic> {
    let conv = snap.converter();
    snap.check()
        .diagnostics
        .iter()
        .map(|d| Diagnostic {
            range: conv.range(d.range.clone()),
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
                Severity::Info => DiagnosticSeverity::INFORMATION,
                Severity::Hint => DiagnosticSeverity::HINT,
            }),
            code: Some(NumberOrString::String(d.code.code.to_owned())),
            code_description: None,
            source: Some("pbn".into()),
            message: format!("{} [{}]", d.message, d.code.name),
            related_information: (!d.related.is_empty()).then(|| {
                d.related
                    .iter()
                    .map(|r| DiagnosticRelatedInformation {
                        location: Location { uri: snap.uri.clone(), range: conv.range(r.range.clone()) },
                        message: r.message.clone(),
                    })
                    .collect()
            }),
            tags: d.unnecessary.then(|| vec![DiagnosticTag::UNNECESSARY]),
            data: None,
        })
        .collect()
}
