//! A2A (Agent2Agent): the skills of an AgentCard, `{"id", "name", "description", "tags",
//! "examples"?, "inputModes"?, "outputModes"?, "security"? | "securityRequirements"?}`.
//!
//! A skill is what an agent can be asked to do, not a function to call: it has no input
//! schema (the agent reads its input from messages). So:
//! - reading, a skill is a tool without parameters, named by its `id`; the skill's `name`
//!   (a human title), `tags`, `examples`, modes and security are metadata, kept when A2A is
//!   the target and reported `metadata-dropped` elsewhere;
//! - writing from another format, the tool name is the `id` and, for want of a title, the
//!   `name` too; the input schema is dropped by the envelope pass and reported
//!   (`input-schema-dropped`, a warning, at the schema's pointer), since
//!   [`FormatInfo::holds_input_schema`] is false. The required `description` and `tags` are
//!   written even when empty (`""`, `[]`): that is what an omitted member means in the
//!   proto3 JSON mapping of A2A 1.0, and JSON-Schema readers of A2A 0.3 require them.
//!
//! A catalog is an AgentCard (`{"name", "description", …, "skills": […]}`): its other members
//! are the catalog wrapper, written back for A2A → A2A and reported `catalog-member-dropped`
//! elsewhere. A bare array of skills is a catalog too, written back as an array. Written from
//! another format, a catalog is `{"skills": […]}`: the card's skill list, to put in a card,
//! since nothing in a tool catalog says what the rest of a card (its URL, version and
//! capabilities) would be.
//!
//! Ids: the Go toolfoundation library reads an id `namespace:name:version` as those three
//! parts. Here the whole id is the tool name, so nothing is lost on the way back; a target
//! whose name rule rejects `:` renames it (the names pass, reported `tool-renamed`, the
//! inverse map restoring the id).

pub mod rules;

use crate::adapter::{Adapter, EmitContext, FormatInfo};
use crate::emit::Writer;
use crate::error::ConversionError;
use crate::ir::{Role, Tool};
use crate::lower::{At, Kind, Lowerer};
use crate::pointer::{Path, Seg};

use super::{Roles, lower_envelope, write_members, wrong};

/// The members of a skill and their roles: a skill is named by its `id`.
const ROLES: Roles = Roles(&[("id", Role::Name), ("description", Role::Description)]);

/// The A2A AgentCard skill format.
#[derive(Clone, Copy, Debug, Default)]
pub struct A2a;

impl Adapter for A2a {
    fn info(&self) -> &FormatInfo {
        &rules::INFO
    }

    fn lower_tool<'a>(
        &self,
        lw: &mut Lowerer<'a, '_>,
        at: At,
        path: &Path<'_>,
    ) -> Result<Tool<'a>, ConversionError> {
        // The shared envelope reader names a missing name member `name`, which in a skill is
        // the title: the skill's own name member is looked for first.
        if lw.kind(at) == Kind::Object && lw.find(at, "id").is_none() {
            return Err(missing_id(lw, at, path));
        }
        lower_envelope(lw, at, path, |key| ROLES.of(key))
    }

    fn write_tool(&self, tool: &Tool<'_>, cx: &EmitContext<'_>, w: &mut Writer<'_>) {
        w.begin_object();
        if cx.same_format() {
            write_members(tool, w, None);
        } else {
            w.key_plain("id");
            w.string(tool.name);
            w.key_plain("name");
            w.string(tool.name);
            w.key_plain("description");
            w.string(tool.description.unwrap_or_default());
            w.key_plain("tags");
            w.begin_array();
            w.end_array();
        }
        w.end_object();
    }
}

/// The error for an object without `id`: another format's tool says whose it looks like; an
/// AgentCard whose `skills` is not an array (so it was not read as a catalog) says so;
/// anything else misses its `id`.
#[cold]
fn missing_id(lw: &Lowerer<'_, '_>, at: At, path: &Path<'_>) -> ConversionError {
    if let Some(e) = super::foreign_in(lw, at, path) {
        return e;
    }
    if let Some(skills) = lw.find(at, "skills") {
        return wrong(lw, &path.push(Seg::Key("skills")), "skills", "an array of skills", skills);
    }
    let about = " (an A2A skill is named by its `id`; `name` is its human-readable title)";
    super::missing(lw, at, path, "id", about)
}
