//! `facegate webhooks secret --tenant NAME [--rotate]`: prints the tenant's webhook signing
//! secret (`whsec_…`) as the last line of stdout, creating it when the tenant has none. With
//! `--rotate` a new secret is made; the old one keeps signing for `--overlap-hours` so receivers
//! can switch without losing a delivery.

use clap::Subcommand;

use services::Settings;

#[derive(Debug, Subcommand)]
pub enum WebhooksCommand {
    /// Print (or, with --rotate, replace) a tenant's webhook signing secret.
    Secret {
        #[arg(long)]
        tenant: String,
        /// Make a new secret; the current one keeps signing during the overlap.
        #[arg(long)]
        rotate: bool,
        /// Hours both secrets sign after a rotation.
        #[arg(long, default_value_t = 24)]
        overlap_hours: u32,
    },
}

pub fn run(settings: &Settings, command: WebhooksCommand) -> Result<(), String> {
    let store = services::open_store(settings).map_err(|e| e.to_string())?;
    store.migrate().map_err(|e| e.to_string())?;
    match command {
        WebhooksCommand::Secret {
            tenant,
            rotate,
            overlap_hours,
        } => {
            let tenant = store
                .tenant_by_name(tenant.trim())
                .map_err(|e| format!("tenant `{}`: {e}", tenant.trim()))?;
            let secret = if rotate {
                let overlap_ms = i64::from(overlap_hours) * 3_600_000;
                let secret = store
                    .rotate_webhook_secret(tenant.id, overlap_ms)
                    .map_err(|e| e.to_string())?;
                eprintln!("rotated; the previous secret keeps signing for {overlap_hours} h");
                secret
            } else {
                store.webhook_secret(tenant.id).map_err(|e| e.to_string())?
            };
            println!("{secret}");
        }
    }
    Ok(())
}
