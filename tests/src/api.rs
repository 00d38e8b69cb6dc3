//! One tenant's view of the server's routes: each request carries its API key, and each
//! answer comes back as a [`Reply`] whatever its status.

use crate::{Part, Reply, json_body, multipart, send};

/// The routes of the server at `base_url`, called with `key`.
#[derive(Debug, Clone)]
pub struct Api {
    pub base_url: String,
    pub key: String,
}

impl Api {
    /// `method` on `path` (below `base_url`) with a body of `content_type`.
    pub fn call(
        &self,
        method: &str,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> Reply {
        let url = format!("{}{path}", self.base_url);
        send(method, &url, Some(&self.key), content_type, body)
    }

    pub fn get(&self, path: &str) -> Reply {
        self.call("GET", path, None, vec![])
    }

    /// A POST with no body (the search-by-face route).
    pub fn post(&self, path: &str) -> Reply {
        self.call("POST", path, None, vec![])
    }

    pub fn delete(&self, path: &str) -> Reply {
        self.call("DELETE", path, None, vec![])
    }

    pub fn post_form(&self, path: &str, parts: &[(&str, Part)]) -> Reply {
        let (content_type, body) = multipart(parts);
        self.call("POST", path, Some(&content_type), body)
    }

    pub fn post_json(&self, path: &str, value: serde_json::Value) -> Reply {
        let (content_type, body) = json_body(value);
        self.call("POST", path, content_type, body)
    }
}
