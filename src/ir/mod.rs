//! The arena IR: what every format lowers into and every back end emits from.
//!
//! Invariants: nodes are frozen once lowered (`&'a` references into one `bumpalo::Bump`);
//! keywords and properties are ordered slices in source order; strings and numbers borrow
//! the input; no node needs `Drop`, so resetting the arena frees everything at once.

mod draft;
mod features;
mod json;
mod json_type;
mod keyword;
pub(crate) mod measure;
mod name_set;
pub(crate) mod names;
pub(crate) mod refs;
mod schema;
mod tool;
pub mod traffic;
mod vacuous;
mod value_type;
pub(crate) mod visit;

pub(crate) use draft::Draft;
pub use features::{FeatureSet, SchemaFeature};
pub use json::{Json, Member};
pub use json_type::JsonType;
pub use keyword::Keyword;
pub(crate) use name_set::NameSet;
pub(crate) use schema::covers;
pub(crate) use schema::required_of;
pub use schema::{Entry, Prop, Schema, Types, Value, features_of};
pub use tool::{
    CLOSED_EMPTY_OBJECT_SCHEMA, EMPTY_OBJECT_SCHEMA, MemberKeeps, Role, Tool, ToolMember,
};
pub(crate) use vacuous::is_vacuous;
pub use value_type::ValueType;
pub(crate) use value_type::{is_count, is_positive};

// Arena memory is released by `Bump::reset` without running destructors; a node that needed
// `Drop` would leak. These fail the build instead.
const _: () = assert!(!std::mem::needs_drop::<Schema<'static>>());
const _: () = assert!(!std::mem::needs_drop::<Tool<'static>>());
const _: () = assert!(!std::mem::needs_drop::<Json<'static>>());
const _: () = assert!(!std::mem::needs_drop::<traffic::Payload<'static>>());

#[cfg(test)]
mod layout {
    use super::*;

    #[test]
    fn node_sizes_stay_small() {
        // Growing these costs cache on every walk; change the numbers only on purpose.
        assert!(std::mem::size_of::<Json<'static>>() <= 24);
        assert!(std::mem::size_of::<Value<'static>>() <= 32);
        assert!(std::mem::size_of::<Entry<'static>>() <= 40);
        assert!(std::mem::size_of::<Schema<'static>>() <= 48);
    }
}
