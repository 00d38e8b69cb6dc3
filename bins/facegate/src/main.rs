//! The `facegate` binary: parses the command line, loads configuration and dispatches to
//! `serve` (the default) or the evaluation commands.

#[cfg(test)]
mod defaults_tests;
mod eval;
mod eval_charts;
mod eval_liveness;
mod eval_report;
mod keys;
mod progress;
mod serve;
mod tls;
mod webhook_secrets;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use services::Settings;
use services::settings;

#[derive(Debug, Parser)]
#[command(
    name = "facegate",
    version,
    about = "Liveness verification and face recognition service"
)]
struct Cli {
    /// Configuration file (default: ./facegate.toml when present).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP service (the default command).
    Serve,
    /// Apply pending database migrations (serve also does this at start-up).
    Migrate,
    /// Administer API keys.
    #[command(subcommand)]
    Keys(keys::KeysCommand),
    /// Administer webhook signing secrets.
    #[command(subcommand)]
    Webhooks(webhook_secrets::WebhooksCommand),
    /// Measure accuracy on your own data.
    #[command(subcommand)]
    Eval(eval::EvalCommand),
    /// Print the OpenAPI document (as served at /api/openapi.json), for client generators.
    Openapi,
}

/// `facegate openapi`: the served document, pretty-printed, on stdout.
fn openapi() -> Result<(), String> {
    let document = serde_json::to_string_pretty(&http::openapi::document())
        .map_err(|e| format!("the OpenAPI document: {e}"))?;
    println!("{document}");
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let settings = match Settings::load(cli.config.as_deref()) {
        Ok(settings) => settings,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    init_logging(settings.log.format);
    let outcome = match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve::run(&settings),
        Command::Migrate => migrate(&settings),
        Command::Keys(command) => keys::run(&settings, command),
        Command::Webhooks(command) => webhook_secrets::run(&settings, command),
        Command::Eval(command) => eval::run(&settings, command),
        Command::Openapi => openapi(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Log lines to standard error: `text` with colours only on a terminal (a file or a pipe gets
/// no ANSI codes), or one JSON object a line.
fn init_logging(format: settings::LogFormat) {
    use std::io::IsTerminal;
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let lines = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        settings::LogFormat::Text => lines.with_ansi(std::io::stderr().is_terminal()).init(),
        settings::LogFormat::Json => lines.json().with_ansi(false).init(),
    }
}

fn migrate(settings: &Settings) -> Result<(), String> {
    let store = services::open_store(settings).map_err(|e| e.to_string())?;
    let applied = store.migrate().map_err(|e| e.to_string())?;
    println!("applied {applied} migration(s); the schema is current");
    Ok(())
}
