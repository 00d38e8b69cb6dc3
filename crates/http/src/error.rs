//! The one error shape of the API, `{"error": {"code", "message"}}`, and the one conversion
//! of every crate's error into it: each error names its own stable code (listed in
//! docs/api.md) beside itself, through `domain::ErrorCode`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

pub use domain::{Code, ErrorCode};

/// An API error: a [`Code`] (which gives the HTTP status), a human message, and the
/// seconds to put in `Retry-After`.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    pub message: String,
    /// Seconds to put in `Retry-After` (rate limiting, unavailability).
    pub retry_after: Option<u64>,
}

/// Put into a response's extensions when it refused a credential (a session id and token that
/// do not match): the lock-out (`crate::guessing`) counts it against the client address.
#[derive(Debug, Clone, Copy)]
pub struct RefusedCredential;

/// The body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

/// A stable, machine-readable `code` (listed in docs/api.md) and a message for people.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    #[schema(schema_with = code_schema)]
    pub code: String,
    pub message: String,
}

/// The schema of `error.code`: one of [`Code::ALL`].
fn code_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(Code::ALL.iter().map(|code| code.name())))
        .examples([Code::ImageTooLarge.name()])
        .build()
}

impl ApiError {
    /// An error answered with `code`'s own status.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        let status =
            StatusCode::from_u16(code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        Self::with_status(status, code, message)
    }

    /// An error answered with another status than `code`'s own (only `invalid_json`'s 413
    /// and 415 answers, as documented).
    pub fn with_status(status: StatusCode, code: Code, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    pub fn unauthorized() -> Self {
        Self::new(
            Code::Unauthorized,
            "a valid API key is required: Authorization: Bearer <key>",
        )
    }

    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(Code::InternalError, message)
    }

    /// The same error with `Retry-After: seconds`.
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        if let Some(seconds) = self.retry_after {
            response.insert_header(("Retry-After", seconds.to_string()));
        }
        let mut response = response.json(ErrorBody {
            error: ErrorDetail {
                code: self.code.name().to_owned(),
                message: self.message.clone(),
            },
        });
        if self.code == Code::SessionNotFound {
            // a session id and token that do not match: counted against the client address
            response.extensions_mut().insert(RefusedCredential);
        }
        response
    }
}

/// The one conversion: every crate's error names its own code (`domain::ErrorCode`, matched
/// variant by variant beside each error). A failure of the server is logged and answered
/// without its cause; a session that does not exist and one whose token does not match read
/// the same.
impl<E: ErrorCode> From<E> for ApiError {
    fn from(e: E) -> Self {
        let code = e.error_code();
        let message = match code {
            Code::InternalError => {
                tracing::error!(error = %e, "internal failure");
                "internal failure".to_owned()
            }
            Code::DatabaseUnavailable => {
                tracing::warn!(error = %e, "database unavailable");
                "the database is unavailable; retry shortly".to_owned()
            }
            Code::SessionNotFound => "Session not found".to_owned(),
            _ => e.to_string(),
        };
        let error = Self::new(code, message);
        match e.retry_after_seconds() {
            Some(seconds) => error.retry_after(seconds),
            None => error,
        }
    }
}

impl ApiError {
    /// A blocking task's pool refused or lost the task (`web::block`).
    pub fn from_blocking(_: actix_web::error::BlockingError) -> Self {
        Self::internal("worker pool unavailable")
    }
}

/// The answer to a path no route matches (`route_not_found`).
pub(crate) async fn route_not_found() -> actix_web::HttpResponse {
    ApiError::new(Code::RouteNotFound, "no route matches this path").error_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sessions::SessionError;
    use crate::storage::{Entity, StorageError};

    #[test]
    fn every_crate_error_reaches_the_client_by_its_own_code() {
        let unavailable = ApiError::from(StorageError::Unavailable("pool timed out".into()));
        assert_eq!(unavailable.code, Code::DatabaseUnavailable);
        assert_eq!(unavailable.retry_after, Some(2));
        assert!(
            !unavailable.message.contains("pool"),
            "the cause is logged, not answered"
        );

        let corrupt = ApiError::from(SessionError::Storage(StorageError::Corrupt("row 7".into())));
        assert_eq!(corrupt.code, Code::InternalError);
        assert_eq!(corrupt.message, "internal failure");

        // an unknown session and a wrong token read the same, whichever layer found it
        let by_store = ApiError::from(StorageError::NotFound {
            entity: Entity::Session,
        });
        let by_service = ApiError::from(SessionError::NotFound);
        assert_eq!(
            (by_store.code, by_store.message),
            (by_service.code, by_service.message)
        );

        let waiting = ApiError::from(SessionError::TooManyAttempts {
            retry_after_seconds: 40,
        });
        assert_eq!(
            (waiting.code, waiting.retry_after),
            (Code::TooManyAttempts, Some(40))
        );
    }
}
