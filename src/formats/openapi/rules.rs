//! OpenAPI's facts: an import-only format whose documents are read whole, one tool per
//! operation, the schemas JSON Schema 2020-12 (3.0 Schema Objects are read into it).

use crate::adapter::{FormatInfo, Mark};
use crate::profile::Profile;

/// What an OpenAPI 3.1 schema holds: JSON Schema 2020-12, every keyword (3.0 schemas are
/// read into it by the dialect pass).
pub const PROFILE: Profile = Profile::keep_all("openapi");

/// What marks an OpenAPI document: its `openapi` version (3.x), or Swagger 2.0's `swagger`.
const MARKS: &[Mark] = &[Mark::any(&["openapi", "swagger"], "document")];

/// The OpenAPI format: imported, never written; no toolfoundation entry (it is not a target).
pub const INFO: FormatInfo = FormatInfo::new("openapi", &PROFILE).import_only().marks(MARKS);
