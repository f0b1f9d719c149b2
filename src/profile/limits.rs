//! A provider's size limits: per strict schema, per request, and the dated ones whose
//! enforcement changed over time. The values live in each format's rules; the checks in
//! `valid`.

/// One documented provider limit: its value and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The largest value the provider accepts.
    pub max: usize,
    /// Where the rule comes from, with the date it was checked.
    pub source: &'static str,
}

/// A limit whose enforcement changed over time: the provider enforced it for a while and then
/// lifted it, or its bound has moved. What a request over it meets depends on when (and,
/// behind a gateway or a cloud's copy of the API, where) it is sent, so `check` reports a tool
/// or a request over it as a warning ([`crate::Code::DatedLimit`]), and a conversion obeys it
/// only when asked ([`crate::Options::dated_limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatedLimit {
    /// The largest value the provider accepted while it enforced the limit.
    pub max: usize,
    /// When the sources show it enforced, and whether it still is (e.g. "2024-11 to 2025-05,
    /// since lifted").
    pub enforced: &'static str,
    /// Where the rule comes from (the provider's error text as public reports quote it), with
    /// the date it was checked.
    pub source: &'static str,
}

/// The size limits a provider enforces. Per-tool limits apply to strict tools; per-request
/// limits to a whole catalog sent in one request; dated ones to every tool and request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProviderLimits {
    /// Object properties in one strict schema, all levels counted.
    pub properties: Option<Limit>,
    /// Levels of object nesting in one strict schema.
    pub depth: Option<Limit>,
    /// `enum` values in one strict schema, all enums counted.
    pub enum_values: Option<Limit>,
    /// Characters of property names, definition names, enum and const values in one strict
    /// schema.
    pub schema_chars: Option<Limit>,
    /// Strict tools in one request.
    pub strict_tools: Option<Limit>,
    /// Optional parameters across the strict tools of one request.
    pub optional_params: Option<Limit>,
    /// Parameters with a union type (`anyOf`, a type array) across the strict tools of one
    /// request.
    pub union_params: Option<Limit>,
    /// `cache_control` breakpoints in one request.
    pub cache_breakpoints: Option<Limit>,
    /// Characters of one tool's description (dated).
    pub description_chars: Option<DatedLimit>,
    /// Tools in one request (dated).
    pub tools: Option<DatedLimit>,
}

impl ProviderLimits {
    pub(crate) const NONE: ProviderLimits = ProviderLimits {
        properties: None,
        depth: None,
        enum_values: None,
        schema_chars: None,
        strict_tools: None,
        optional_params: None,
        union_params: None,
        cache_breakpoints: None,
        description_chars: None,
        tools: None,
    };
}
