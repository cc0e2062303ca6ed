use clap::{Args, Subcommand};
use std::process::ExitCode;

/// Show the configuration (`pbn.toml`). Without a subcommand: this help.
#[derive(Args)]
#[command(
    after_help = "Examples:\n  pbn config show\n  pbn config show games/game.pbn\n  pbn config schema"
)]
pub struct ConfigArgs {
    #[command(subcommand)]
    command: Option<ConfigCommand>,
}

// `pbn config` as a command of its own, for its help text (the about
// line comes from `ConfigArgs`).
#[derive(clap::Parser)]
#[command(name = "pbn config", about = "Show the configuration (`pbn.toml`).")]
struct Help {
    #[command(flatten)]
    args: ConfigArgs,
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Print the JSON schema of pbn.toml.
    Schema,
    /// Print the configuration that applies to a path (defaults filled in),
    /// after a first line naming the file in effect.
    ///
    /// The file is the first pbn.toml or .pbn.toml in the path's directory
    /// or a parent; the search stops at a repository root (a directory
    /// holding .git) or the home directory.
    #[command(after_help = "Examples:\n  pbn config show\n  pbn config show games/game.pbn")]
    Show {
        /// File or directory; the pbn.toml is searched upward from it.
        #[arg(default_value = ".")]
        path: std::path::PathBuf,
    },
}

pub fn run(args: ConfigArgs) -> ExitCode {
    let Some(command) = args.command else {
        use clap::CommandFactory;
        let mut help = Help::command();
        out!("{}", help.render_long_help());
        return ExitCode::SUCCESS;
    };
    match command {
        ConfigCommand::Schema => {
            outln!(
                "{}",
                serde_json::to_string_pretty(&pbn_core::config::schema())
                    .expect("schema serializes")
            );
            ExitCode::SUCCESS
        }
        ConfigCommand::Show { path } => match pbn::config_file::load_for(&path) {
            Ok((c, file)) => {
                match file {
                    Some(f) => outln!("# in effect: {}", f.display()),
                    None => outln!(
                        "# in effect: none (no pbn.toml or .pbn.toml from {} up to {}); defaults",
                        path.display(),
                        pbn::config_file::search(&path).stopped_at.display()
                    ),
                }
                out!("{}", toml::to_string(&c).expect("config serializes"));
                ExitCode::SUCCESS
            }
            Err(e) => {
                errln!("error: {e}");
                ExitCode::from(2)
            }
        },
    }
}
