use clap::{Args, Subcommand};
use std::process::ExitCode;

/// Show the configuration (`pbn.toml`).
#[derive(Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    command: ConfigCommand,
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Print the JSON schema of pbn.toml.
    Schema,
    /// Print the configuration that applies to a path (defaults filled in).
    Show {
        /// File or directory; the pbn.toml is searched upward from it.
        #[arg(default_value = ".")]
        path: std::path::PathBuf,
    },
}

pub fn run(args: ConfigArgs) -> ExitCode {
    match args.command {
        ConfigCommand::Schema => {
            outln!(
                "{}",
                serde_json::to_string_pretty(&pbn_core::config::schema())
                    .expect("schema serializes")
            );
            ExitCode::SUCCESS
        }
        ConfigCommand::Show { path } => match pbn_core::config::load_for(&path) {
            Ok((c, file)) => {
                match file {
                    Some(f) => outln!("# from {}", f.display()),
                    None => outln!("# no pbn.toml found; defaults"),
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
