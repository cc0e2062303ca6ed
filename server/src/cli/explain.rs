use clap::Args;
use pbn_core::codes::{all, lookup, POLICY};
use pbn_core::rules::fixes::{fix_kind, FixKind};
use std::process::ExitCode;

/// Print the long explanation of a diagnostic code, the list of codes or
/// the severity policy (what makes a code an error, a warning or info).
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn explain PBN0003\n  pbn explain unterminated-string\n  pbn explain --list\n  pbn explain --policy"
)]
pub struct ExplainArgs {
    /// The code (`PBN0003`, `3`) or the rule name (`unterminated-string`).
    #[arg(required_unless_present_any = ["list", "policy"])]
    code: Option<String>,
    /// List every code with its default severity (error, warning, info or
    /// hint), category, name, whether it has a fix, and summary.
    #[arg(long)]
    list: bool,
    /// Print the severity policy: when a code is an error, a warning or
    /// info, and how pbn.toml changes it.
    #[arg(long, conflicts_with_all = ["list", "code"])]
    policy: bool,
}

pub fn run(args: ExplainArgs) -> ExitCode {
    if args.policy {
        out!("{POLICY}");
        return ExitCode::SUCCESS;
    }
    if args.list {
        outln!(
            "{:<7}  {:<8} {:<12} {:<28} {:<6} summary",
            "code",
            "severity",
            "category",
            "name",
            "fix"
        );
        for c in all() {
            outln!(
                "{}  {:<8} {:<12} {:<28} {:<6} {}",
                c.code,
                c.severity.name(),
                c.category.name(),
                c.name,
                match fix_kind(c.code) {
                    Some(FixKind::Safe) => "safe",
                    Some(FixKind::Unsafe) => "unsafe",
                    Some(FixKind::Either) => "either",
                    None => "-",
                },
                c.summary
            );
        }
        outln!("(severities: see `pbn explain --policy`; a pbn.toml may change them)");
        return ExitCode::SUCCESS;
    }
    let q = args.code.unwrap_or_default();
    let Some(c) = lookup(&q) else {
        errln!("error: unknown diagnostic code `{q}` (see `pbn explain --list`)");
        return ExitCode::from(2);
    };
    outln!(
        "{} {} ({}, {}, PBN 2.1 {})\n",
        c.code,
        c.name,
        c.severity.name(),
        c.category.name(),
        c.section
    );
    outln!("{}\n", c.summary);
    outln!("{}\n", c.explanation);
    outln!("{}\n", fix_text(c));
    outln!("Fails:\n{}", indent(c.bad));
    outln!("Passes:\n{}", indent(c.good));
    ExitCode::SUCCESS
}

/// Whether the code's diagnostics carry a fix, what it does and what
/// applies it.
fn fix_text(c: &pbn_core::codes::CodeInfo) -> String {
    let Some(f) = pbn_core::rules::fixes::fixer_of(c.code) else {
        return if pbn_core::rules::fixes::cleared_by_fmt(c) {
            "Fix: none; `pbn fmt` writes the file in export format.".into()
        } else if c.code == "PBN1004" {
            "Fix: none; `pbn fmt --eol crlf` writes CRLF line ends.".into()
        } else {
            "Fix: none.".into()
        };
    };
    let how = match f.kind {
        FixKind::Safe => "safe, where the repair is certain; applied by `pbn check --fix` and `pbn fmt`",
        FixKind::Unsafe => "unsafe (it involves a guess); applied by `pbn check --fix --unsafe-fixes`",
        FixKind::Either => "safe or unsafe by case; `pbn check --fix` applies the safe ones, `--unsafe-fixes` the others",
    };
    format!("Fix: {}.\nIts kind: {how}.", f.does)
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}
