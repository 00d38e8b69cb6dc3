//! `facegate keys create|list|revoke`: API key administration. A new key is printed once, as
//! the last line of stdout; only its HMAC digest is stored.

use clap::Subcommand;

use services::Settings;

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Issue a key for a tenant (created if new); prints the key as the last line.
    Create {
        #[arg(long)]
        tenant: String,
    },
    /// List every key: id, tenant, created, status.
    List,
    /// Revoke a key by its id.
    Revoke { id: String },
}

pub fn run(settings: &Settings, command: KeysCommand) -> Result<(), String> {
    let store = services::open_store(settings).map_err(|e| e.to_string())?;
    store.migrate().map_err(|e| e.to_string())?;
    match command {
        KeysCommand::Create { tenant } => {
            let name = tenant.trim();
            if name.is_empty() || name.len() > 255 {
                return Err("--tenant must be 1 to 255 characters".into());
            }
            let tenant = store.ensure_tenant(name).map_err(|e| e.to_string())?;
            let (key, plaintext) = store.create_api_key(tenant.id).map_err(|e| e.to_string())?;
            eprintln!(
                "created key {} for tenant {name}; it is shown once:",
                key.id
            );
            println!("{plaintext}");
        }
        KeysCommand::List => {
            println!("id\ttenant\tcreated_at_ms\tstatus");
            for (key, tenant) in store.list_api_keys().map_err(|e| e.to_string())? {
                let status = if key.is_active() { "active" } else { "revoked" };
                println!("{}\t{tenant}\t{}\t{status}", key.id, key.created_at);
            }
        }
        KeysCommand::Revoke { id } => {
            store.revoke_api_key(&id).map_err(|e| e.to_string())?;
            println!("revoked {id}");
        }
    }
    Ok(())
}
