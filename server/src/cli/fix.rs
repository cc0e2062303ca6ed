//! `pbn check --fix` / `--unsafe-fixes` / `--diff`: apply the diagnostics'
//! fixes ([`pbn_core::checker::fix`]), write the files back safely
//! ([`super::write`]), and report what changed and what is left.

use super::files::Input;
use super::render::Style;
use super::report::{print_human, FileReport};
use super::write;
use pbn_core::checker::fix::{fix_source_of, Fixed};
use pbn_core::checker::CheckOptions;
use pbn_core::codes::CodeInfo;
use pbn_core::diagnostic::Severity;
use pbn_core::text::{decode, encode};
use std::process::ExitCode;

pub struct Mode {
    /// Write the files (else print a diff).
    pub write: bool,
    /// Write read-only files too (`--force`).
    pub force: bool,
    pub unsafe_fixes: bool,
    pub style: Style,
    /// What is left as JSON (`--output-format json`).
    pub json: bool,
    /// No summary (`--quiet`).
    pub quiet: bool,
    /// Only these codes' fixes, and only they are reported after (`pbn
    /// score --write`); every code when `None`.
    pub only: Option<&'static [&'static CodeInfo]>,
}

impl Mode {
    fn wants(&self, code: &CodeInfo) -> bool {
        self.only
            .is_none_or(|only| only.iter().any(|c| std::ptr::eq(*c, code)))
    }
}

/// `3 fixes (PBN0520 ×2, PBN0302)`.
fn applied_text(f: &Fixed) -> String {
    let codes: Vec<String> = f
        .applied
        .iter()
        .map(|(c, n)| {
            if *n == 1 {
                c.code.to_string()
            } else {
                format!("{} ×{n}", c.code)
            }
        })
        .collect();
    let n = f.count();
    format!(
        "{n} fix{} ({})",
        if n == 1 { "" } else { "es" },
        codes.join(", ")
    )
}

/// `policies[i]` (pbn.toml's `[check] ignore` and `[check.severity]`) is
/// applied to what is left of `inputs[i]`, as plain `pbn check` applies it.
pub fn run(
    inputs: &[Input],
    opts: &[CheckOptions],
    policies: &[pbn_core::config::Policy],
    mode: Mode,
) -> ExitCode {
    let mut failed = false;
    let mut reports = Vec::new();
    let (mut errors, mut warnings, mut infos, mut hints, mut games) = (0, 0, 0, 0, 0);
    let mut would_change = 0;
    for ((input, opts), policy) in inputs.iter().zip(opts).zip(policies) {
        let name = input.display();
        let (bytes, original) = match write::read_input(input) {
            Ok(r) => r,
            Err(e) => {
                reports.push(FileReport {
                    input: input.clone(),
                    outcome: Err(format!("{name}: {}", write::message(&e))),
                });
                failed = true;
                continue;
            }
        };
        let source = decode(&bytes);
        let mut fixed = match std::panic::catch_unwind(|| {
            fix_source_of(&source, opts, mode.unsafe_fixes, |c| mode.wants(c))
        }) {
            Ok(f) => f,
            Err(_) => {
                reports.push(FileReport {
                    input: input.clone(),
                    outcome: Err(format!(
                        "{name}: internal error while fixing (file left unchanged; please report it)"
                    )),
                });
                failed = true;
                continue;
            }
        };
        // A fix of the encoding (PBN0111, §2.2) changes the bytes only.
        let changed = fixed.count() > 0
            && (fixed.source.text != source.text || fixed.source.encoding != source.encoding);
        if fixed.unstable {
            errln!(
                "warning: {name}: fixes still changed the text after {} rounds; the last round is kept",
                pbn_core::checker::fix::MAX_PASSES
            );
        }
        if !mode.write {
            if changed {
                would_change += 1;
                out!(
                    "{}",
                    write::unified_diff(
                        &name,
                        "fixed",
                        (&source.text, source.encoding),
                        (&fixed.source.text, fixed.source.encoding)
                    )
                );
                errln!("{name}: would apply {}", applied_text(&fixed));
            }
        } else if changed {
            let (out, lost) = encode(&fixed.source.text, fixed.source.encoding);
            if write::unencodable(&name, lost, fixed.source.encoding) {
                failed = true;
                continue;
            }
            match (&original, input) {
                (_, Input::Stdin) => super::out::stdout(&out),
                (Some(original), _) => match write::replace(original, &out, mode.force) {
                    Ok(()) => errln!("{name}: applied {}", applied_text(&fixed)),
                    Err(e) => {
                        errln!("error: {name}: {}", write::message(&e));
                        failed = true;
                        continue;
                    }
                },
                (None, _) => {}
            }
        } else if matches!(input, Input::Stdin) {
            super::out::stdout(&bytes);
        }
        policy.apply(&mut fixed.remaining.diagnostics);
        fixed.remaining.diagnostics.retain(|d| mode.wants(d.code));
        for d in &fixed.remaining.diagnostics {
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
                Severity::Info => infos += 1,
                Severity::Hint => hints += 1,
            }
        }
        games += fixed.remaining.games;
        reports.push(FileReport {
            input: input.clone(),
            outcome: Ok((fixed.source, fixed.remaining)),
        });
    }
    // What is left, as `pbn check` shows it: on standard error when the
    // fixed text or the diff goes to standard output.
    let to_stdout = mode.write && !inputs.iter().any(|i| matches!(i, Input::Stdin));
    let counts = [errors, warnings, infos, hints];
    if to_stdout && mode.json {
        super::report::print_json(&reports, counts, games);
    } else if to_stdout {
        print_human(
            &reports,
            &mode.style,
            counts,
            games,
            !mode.quiet,
            mode.unsafe_fixes,
        );
    } else {
        for r in &reports {
            if let Err(e) = &r.outcome {
                errln!("error: {e}");
            }
        }
        if !mode.quiet {
            errln!("left: {errors} error(s), {warnings} warning(s)");
            for line in super::report::fixable_lines(&reports, mode.unsafe_fixes) {
                errln!("{line}");
            }
        }
    }
    if failed {
        ExitCode::from(2)
    } else if (!mode.write && would_change > 0) || errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
