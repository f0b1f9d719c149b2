//! A2A's facts and rules: a skill holds no JSON Schema at all, so every schema feature is
//! dropped (with the whole input schema, by the envelope pass); the skill's `id` has no
//! documented character rule, so no tool-name rule is applied when writing one.
//!
//! Sources, checked 2026-11-25:
//! - the A2A specification's `AgentSkill` and `AgentCard` messages (a2aproject/A2A,
//!   `specification/a2a.proto`, protocol 1.0): a skill is `id`, `name`, `description`,
//!   `tags` (all four REQUIRED), `examples`, `input_modes`, `output_modes`,
//!   `security_requirements`; a card holds `skills` (REQUIRED) beside `name`,
//!   `description`, `supported_interfaces`, `version`, `capabilities`, … The JSON forms are
//!   the proto's camelCase names (`inputModes`, `securityRequirements`);
//! - a2a-python `src/a2a/types.py` (generated from `specification/json/a2a.json`, protocol
//!   0.3): the same skill with `security` in place of `securityRequirements`, and `id`,
//!   `name`, `description` and `tags` required; the card has `url` and `protocolVersion`;
//! - the Go toolfoundation library's `adapter/a2a.go`: `SupportsFeature` answers false for
//!   every feature ("A2A skill metadata does not carry JSON Schema"), and skill ids read as
//!   `namespace:name:version`.

use crate::adapter::{FormatInfo, Mark};
use crate::ir::FeatureSet;
use crate::profile::{Profile, toolfoundation};

/// A2A: a skill carries no schema, so no schema feature is kept. The table says so for
/// `tooladapter formats`; in a conversion the envelope pass drops the input schema whole
/// (one `input-schema-dropped` warning), before any keyword is looked at.
pub const PROFILE: Profile =
    toolfoundation(Profile::keep_all("a2a"), FeatureSet::EMPTY).named("a2a");

/// A2A under the toolfoundation profile: the Go library's A2A adapter supports no feature
/// (`SupportsFeature` is false for all), which is the A2A profile already.
pub const TOOLFOUNDATION: Profile = PROFILE.named("a2a (toolfoundation)");

/// What marks an A2A `AgentSkill`: its `id` beside its `tags`, both required by the
/// specification (A2A `AgentSkill`, read 2026-11-28: <https://a2a-protocol.org/latest/specification/>).
const MARKS: &[Mark] = &[Mark::all(&["id", "tags"], "skill")];

/// The A2A AgentCard skill format: a catalog is an AgentCard (its `skills` member; the card's
/// other members are the catalog wrapper) or a bare array of skills; a skill is named by its
/// `id` (its `name` is a title); it has no input schema, and none is required.
pub const INFO: FormatInfo = FormatInfo::new("a2a", &PROFILE)
    .toolfoundation(&TOOLFOUNDATION)
    .catalog_key("skills")
    .catalog_object()
    .marks(MARKS)
    .name_pointer("/id")
    .no_input_schema();
