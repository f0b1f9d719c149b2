//! The owned tree: [`JsonSchema`] and [`CanonicalTool`], for users who build, inspect or edit
//! tools in code.
//!
//! The conversion path (bytes → arena IR → bytes) never touches this module: it stays in the
//! arena and allocates nothing per tool. The owned tree is the convenient, `'static`, serde-able
//! form for everything else: [`crate::ir::Schema::deep_copy`] materialises one from the IR, and
//! serialising it with `serde_json` gives JSON that the crate's lowering reads back to the same
//! meaning.
//!
//! [`JsonSchema`]'s documentation describes the representation: typed fields per modelled
//! keyword, `IndexMap`s that keep the author's order, and an `extra` map that keeps the rest.
//!
//! One file per job:
//!
//! - `schema.rs`: [`JsonSchema`] and the value types of `type` and `items`;
//! - `object.rs`: [`SchemaObject`], its fields and how members are set and visited;
//! - `slot.rs`: the one keyword → field table, and reading or writing one field as JSON;
//! - `serde.rs`: `Serialize` / `Deserialize` for the schema types;
//! - `tool.rs`: [`CanonicalTool`] and the fields of it no target format holds;
//! - `from_ir.rs`: IR → owned ([`crate::ir::Schema::deep_copy`], the crate's `tool_from_ir`);
//!
//! Writing owned tools as an MCP catalog, and reporting what that form leaves out, is MCP's
//! and lives in its folder (`formats/mcp/owned.rs`).
//!
//! The model's rules (validation, tags, ids) are policy on this data and live in `model.rs`.

mod from_ir;
mod object;
pub(crate) mod rules;
mod schema;
mod serde;
mod slot;
#[cfg(test)]
mod tests;
mod tool;

pub(crate) use from_ir::tool_from_ir;
pub use object::SchemaObject;
pub use rules::{MAX_NAME_LEN, ToolId, ToolIdError, ToolValidationError};
pub use schema::{InstanceType, Items, JsonSchema, SchemaType};
pub use tool::CanonicalTool;
