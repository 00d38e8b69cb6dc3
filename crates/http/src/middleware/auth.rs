//! API-key authentication: the `Authorization: Bearer <key>` header resolved to its tenant.
//! Keys are checked against their stored HMAC digest in constant time (storage).

use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use domain::TenantId;

use crate::AppState;
use crate::error::{ApiError, Code};
use crate::guessing::AcceptedApiKey;
use crate::ratelimit::LimitRefusal;

/// The tenant of the request's API key. Extracting it answers 401 when the key is missing,
/// malformed, unknown or revoked, and 429 when the key is over its rate limit.
#[derive(Debug, Clone, Copy)]
pub struct Tenant(pub TenantId);

fn rate_limited(wait_seconds: u64) -> ApiError {
    let message = format!("this API key is over its rate limit; retry in {wait_seconds} s");
    ApiError::new(Code::RateLimited, message).retry_after(wait_seconds)
}

impl FromRequest for Tenant {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let key = crate::client::bearer(req);
        let state = req.app_data::<web::Data<AppState>>().cloned();
        // the lock-out already checked this key (a locked-out address): not again
        let accepted = req.extensions().get::<AcceptedApiKey>().map(|a| a.0);
        let req = req.clone();
        Box::pin(async move {
            let (Some(key), Some(state)) = (key, state) else {
                return Err(ApiError::unauthorized());
            };
            let key_id = crate::storage::secrets::api_key_id(&key).map(str::to_owned);
            let checked = crate::blocking(move || {
                let tenant = match accepted {
                    Some(tenant) => Some(tenant),
                    None => state.operations.tenant_of_api_key(&key)?,
                };
                let Some(tenant) = tenant else {
                    return Ok(None);
                };
                if let Some(key_id) = key_id {
                    match state.limiter.check(&key_id) {
                        Ok(()) => {}
                        Err(LimitRefusal::Wait(seconds)) => return Err(rate_limited(seconds)),
                        Err(LimitRefusal::Store(e)) => return Err(e.into()),
                    }
                }
                Ok::<_, ApiError>(Some(tenant))
            })
            .await?;
            let tenant = checked.ok_or_else(ApiError::unauthorized)?;
            req.extensions_mut().insert(AcceptedApiKey(tenant));
            Ok(Tenant(tenant))
        })
    }
}
