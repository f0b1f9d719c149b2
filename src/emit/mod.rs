//! Emission: IR → JSON bytes in a reused buffer.
//!
//! One writer serves every back end. Key order is IR order (the author's order), numbers are
//! written as their source text and strings are re-escaped minimally, so the same input and
//! options always give the same bytes — prompt caches key on them.
//!
//! - `writer.rs`: the byte-level [`Writer`] (brackets, separators, keys, strings, verbatim JSON).
//! - `schema.rs`: writing a schema, its keywords and their values.
//! - `source.rs`: telling the input's own strings, which are copied as the input spelled them.
//! - `escape.rs`: escaping strings, and copying short runs in fixed-size windows.
//! - `catalog.rs`: a catalog written as an object, its tool list under its key.
//! - `padded.rs`: text known at compile time, written in one fixed-size copy.

mod catalog;
mod escape;
mod padded;
mod schema;
mod source;
#[cfg(test)]
mod tests;
mod writer;

pub(crate) use catalog::write_object_catalog;
pub use escape::write_escaped;
pub(crate) use source::Source;
pub use writer::Writer;
