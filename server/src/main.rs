//! The `pbn` command line. Each subcommand lives in `cli/<name>.rs`.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "pbn",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("PBN_COMMIT"), ")"),
    about = "Checker and tooling for PBN (Portable Bridge Notation 2.1) files",
    long_about = "Checker and tooling for PBN (Portable Bridge Notation 2.1) files.\n\n\
                  Every diagnostic has a stable code (PBN0001…) that names the rule and \
                  the spec section; `pbn explain CODE` prints the long text.",
    after_help = "Examples:\n  pbn check examples/schiphol.pbn\n  pbn dump examples/schiphol.pbn\n  pbn fmt --check games/\n  pbn check --output-format json games/\n  pbn explain PBN0003\n  pbn show examples/schiphol.pbn --board 1\n  pbn html examples/schiphol.pbn -o records.html\n  pbn convert deals.rbn -o deals.pbn\n  pbn score results.pbn"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Check(cli::check::CheckArgs),
    Fmt(cli::fmt::FmtArgs),
    Dd(cli::dd::DdArgs),
    Config(cli::config::ConfigArgs),
    Lsp(cli::lsp::LspArgs),
    Dump(cli::dump::DumpArgs),
    Explain(cli::explain::ExplainArgs),
    Show(cli::show::ShowArgs),
    Html(cli::html::HtmlArgs),
    Convert(cli::convert::ConvertArgs),
    Score(cli::score::ScoreArgs),
}

fn main() -> ExitCode {
    pbn::alloc::init();
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => cli::check::run(args),
        Command::Fmt(args) => cli::fmt::run(args),
        Command::Dd(args) => cli::dd::run(args),
        Command::Config(args) => cli::config::run(args),
        Command::Lsp(args) => cli::lsp::run(args),
        Command::Dump(args) => cli::dump::run(args),
        Command::Explain(args) => cli::explain::run(args),
        Command::Show(args) => cli::show::run(args),
        Command::Html(args) => cli::html::run(args),
        Command::Convert(args) => cli::convert::run(args),
        Command::Score(args) => cli::score::run(args),
    }
}
