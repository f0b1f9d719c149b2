//! The translation of an OpenAPI document into an MCP-shaped catalog, one tool per operation.
//!
//! The document is read once, in order, into the arena as raw JSON (so numbers keep their
//! text, duplicate keys and depth are checked as for any input), then walked freely: an
//! operation's parameters and body are gathered first, so that names, clashes and `required`
//! are settled before its tool is written. Schemas are copied keyword by keyword, only
//! `$ref`s changing: a reference to `#/components/schemas/X` becomes `#/$defs/X` and `X` joins
//! the tool's `$defs` (with everything it references in turn); any other reference is left
//! out, with a note in the schema's description and a report entry. Every walk is bounded:
//! schema recursion by the document's depth limit, reference chains by [`MAX_HOPS`], and the
//! translated catalog by the input size limit.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use crate::adapter::Imported;
use crate::emit::Writer;
use crate::error::{ConversionError, Direction, ErrorKind};
use crate::ir::{Json, Member};
use crate::lower::Lowerer;
use crate::pointer::{Path, Seg, escape_into, write_seg};
use crate::report::{Code, Severity};

use super::{DIALECT, OpenApi};

const NAME: &str = "openapi";

/// The operations of a path item, as OpenAPI 3.0 and 3.1 name them.
const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Most `$ref`s followed from one parameter, request body or path item: a longer chain is
/// taken for a cycle.
const MAX_HOPS: usize = 32;

/// Header parameters the specification says to ignore (compared without case).
const IGNORED_HEADERS: [&str; 3] = ["Accept", "Content-Type", "Authorization"];

/// The schema of a media type without one: any value.
static ANY: Json<'static> = Json::Object(&[]);

/// `false` as an object schema, to hang a description on.
static NOTHING: [Member<'static>; 1] = [Member { key: "not", value: Json::Object(&[]) }];

/// Translates the document `lw` reads into `out`'s document.
pub(super) fn run(
    lw: &mut Lowerer<'_, '_>,
    out: &mut Imported,
    api: &OpenApi,
) -> Result<(), ConversionError> {
    let root = lw.json(0, &Path::ROOT, 0)?;
    let max_bytes = lw.limits().max_input_bytes;
    let mut document = std::mem::take(&mut out.document);
    let result =
        Translator::new(root, out, max_bytes).and_then(|mut t| t.catalog(&mut document, api));
    out.document = document;
    result
}

/// Where a parameter goes in the request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Loc {
    Path,
    Query,
    Header,
    Cookie,
}

impl Loc {
    fn parse(s: &str) -> Option<Loc> {
        Some(match s {
            "path" => Loc::Path,
            "query" => Loc::Query,
            "header" => Loc::Header,
            "cookie" => Loc::Cookie,
            _ => return None,
        })
    }

    fn as_str(self) -> &'static str {
        match self {
            Loc::Path => "path",
            Loc::Query => "query",
            Loc::Header => "header",
            Loc::Cookie => "cookie",
        }
    }

    /// The `style` a parameter here has when it states none.
    fn default_style(self) -> &'static str {
        match self {
            Loc::Query | Loc::Cookie => "form",
            Loc::Path | Loc::Header => "simple",
        }
    }
}

/// One operation of the document.
struct Operation<'a> {
    method: &'a str,
    /// The path item (its `$ref` followed) and the operation.
    item: &'a [Member<'a>],
    op: &'a [Member<'a>],
    item_ptr: String,
    ptr: String,
    id: Option<&'a str>,
    /// The tool name.
    name: String,
    /// Why the name is not the operation's own, when it is not.
    clash: Option<(Severity, String)>,
}

/// A parameter of an operation, its `$ref` followed.
struct Param<'a> {
    name: &'a str,
    loc: Loc,
    obj: &'a [Member<'a>],
    ptr: String,
    /// A Reference Object's `description`, which overrides the parameter's (3.1).
    ref_description: Option<&'a str>,
    /// The property it becomes.
    key: String,
}

/// What the request body becomes.
enum Body<'a> {
    None,
    /// One property holding the body.
    Property {
        key: String,
        schema: &'a Json<'a>,
        ptr: String,
        required: bool,
        description: Option<&'a str>,
    },
    /// The body object's properties, next to the parameters.
    Merged {
        schema: &'a [Member<'a>],
        ptr: String,
        description: Option<&'a str>,
    },
}

/// What a schema written for a parameter or a body property gains from around it.
#[derive(Default)]
struct Extras<'a> {
    description: Option<&'a str>,
    deprecated: bool,
    examples: Vec<Json<'a>>,
}

/// Where a `$ref` in a schema leads.
enum Target {
    /// A component schema, now in the tool's `$defs`: the rewritten reference.
    Def(String),
    /// Another document.
    External,
    /// Nowhere in this document.
    Dangling,
    /// Somewhere in this document other than `components/schemas`.
    Elsewhere,
}

/// A `$ref` chain followed from a parameter, request body or path item.
enum Deref<'a> {
    /// The value, its pointer, and the first Reference Object `description` on the way.
    Found(&'a Json<'a>, String, Option<&'a str>),
    /// A reference (at the pointer) that cannot be followed, and why.
    Unresolved { reference: &'a str, at: String, code: Code, why: &'static str },
}

struct Translator<'a, 'o> {
    root: &'a [Member<'a>],
    /// An OpenAPI 3.0 document (`nullable` and boolean bounds in its schemas).
    v30: bool,
    /// Every map of `components` (`schemas`, `parameters`, `requestBodies`, …), its entries
    /// sorted by name: references into them are looked up, not searched.
    components: BTreeMap<&'a str, Vec<(&'a str, &'a Json<'a>)>>,
    out: &'o mut Imported,
    max_bytes: usize,
    /// The tool being written: its index in the catalog, its name, and the component schemas
    /// it uses, in the order first used.
    tool: usize,
    name: String,
    defs: Vec<&'a str>,
    seen: BTreeSet<&'a str>,
    /// The tool's notes so far (code, pointer): a schema written twice in one tool (a merged
    /// body whose component is also in `$defs`) is noted once.
    noted: BTreeSet<(&'static str, String)>,
}

impl<'a, 'o> Translator<'a, 'o> {
    fn new(
        root: Json<'a>,
        out: &'o mut Imported,
        max_bytes: usize,
    ) -> Result<Self, ConversionError> {
        let Json::Object(root) = root else {
            return Err(err(
                "",
                ErrorKind::Shape(format!(
                    "expected an OpenAPI document (a JSON object), found {}",
                    root.kind()
                )),
            ));
        };
        let v30 = match get(root, "openapi") {
            Some(Json::String(v)) if v.starts_with("3.0") => true,
            Some(Json::String(v)) if v.starts_with("3.1") => false,
            Some(Json::String(v)) => {
                return Err(err(
                    "/openapi",
                    ErrorKind::Shape(format!(
                        "OpenAPI version {v:?} is not read (3.0.x and 3.1.x are)"
                    )),
                ));
            }
            Some(other) => return Err(wrong("/openapi", "openapi", "a string", other)),
            None if get(root, "swagger").is_some() => {
                return Err(err(
                    "/swagger",
                    ErrorKind::Shape(
                        "a Swagger 2.0 document; only OpenAPI 3.0 and 3.1 are read (convert it to OpenAPI 3 first)"
                            .to_owned(),
                    ),
                ));
            }
            None => {
                return Err(err(
                    "",
                    ErrorKind::MissingMember {
                        member: "openapi",
                        hint: " (expected an OpenAPI 3.0 or 3.1 document)".to_owned(),
                    },
                ));
            }
        };
        let mut components = BTreeMap::new();
        match get(root, "components") {
            None => {}
            Some(Json::Object(maps)) => {
                for m in *maps {
                    match &m.value {
                        Json::Object(list) => {
                            let mut sorted: Vec<(&'a str, &'a Json<'a>)> =
                                list.iter().map(|e| (e.key, &e.value)).collect();
                            sorted.sort_unstable_by(|a, b| a.0.cmp(b.0));
                            components.insert(m.key, sorted);
                        }
                        other if m.key == "schemas" => {
                            return Err(wrong(
                                "/components/schemas",
                                "schemas",
                                "an object",
                                other,
                            ));
                        }
                        _ => {}
                    }
                }
            }
            Some(other) => return Err(wrong("/components", "components", "an object", other)),
        }
        Ok(Translator {
            root,
            v30,
            components,
            out,
            max_bytes,
            tool: 0,
            name: String::new(),
            defs: Vec::new(),
            seen: BTreeSet::new(),
            noted: BTreeSet::new(),
        })
    }

    /// Writes `{"tools": [...]}`: every selected operation, in document order.
    fn catalog(&mut self, doc: &mut Vec<u8>, api: &OpenApi) -> Result<(), ConversionError> {
        let mut ops = self.operations()?;
        name_operations(&mut ops);
        let selected: Vec<&Operation<'a>> =
            ops.iter().filter(|op| api.selects(op.id.unwrap_or(&op.name))).collect();
        for pattern in &api.operations {
            if !ops.iter().any(|op| super::glob(pattern, op.id.unwrap_or(&op.name))) {
                self.out.note(
                    None,
                    Severity::Info,
                    Code::OperationSkipped,
                    "operationId",
                    String::new(),
                    format!("no operation matches the filter `{pattern}`"),
                );
            }
        }
        self.webhooks()?;
        if ops.is_empty() {
            let at = if get(self.root, "paths").is_some() { "/paths" } else { "" };
            self.out.note(
                None,
                Severity::Info,
                Code::OperationSkipped,
                "paths",
                at.to_owned(),
                "the document describes no operation; the catalog is empty".to_owned(),
            );
        }
        doc.extend_from_slice(br#"{"tools":["#);
        for (i, op) in selected.into_iter().enumerate() {
            self.tool = i;
            self.name.clone_from(&op.name);
            if i > 0 {
                doc.push(b',');
            }
            self.operation(&mut Writer::new(doc, false), op)?;
            // Each tool carries its own copy of the component schemas it uses, so the
            // translation may outgrow the document: it is held to the same limit.
            if doc.len() > self.max_bytes {
                return Err(err(
                    &op.ptr,
                    ErrorKind::InputTooLarge { size: doc.len(), limit: self.max_bytes },
                ));
            }
        }
        doc.extend_from_slice(b"]}");
        Ok(())
    }

    /// Every operation of `paths`, in document order.
    fn operations(&mut self) -> Result<Vec<Operation<'a>>, ConversionError> {
        let mut ops = Vec::new();
        let paths = match get(self.root, "paths") {
            None => return Ok(ops),
            Some(Json::Object(paths)) => *paths,
            Some(other) => return Err(wrong("/paths", "paths", "an object", other)),
        };
        for m in paths {
            let ptr = join("/paths", m.key);
            let (item, item_ptr) = match self.deref(&m.value, ptr) {
                Deref::Found(Json::Object(item), at, _) => (*item, at),
                Deref::Found(other, at, _) => return Err(wrong(&at, m.key, "an object", other)),
                Deref::Unresolved { reference, at, code: _, why } => {
                    self.out.note(
                        None,
                        Severity::Warning,
                        Code::OperationSkipped,
                        "$ref",
                        join(&at, "$ref"),
                        format!(
                            "path item `{}` is a `$ref` to `{reference}`, which {why}; its operations are not imported",
                            m.key
                        ),
                    );
                    continue;
                }
            };
            for op in item {
                if !METHODS.contains(&op.key) {
                    continue;
                }
                let ptr = join(&item_ptr, op.key);
                let Json::Object(members) = op.value else {
                    return Err(wrong(&ptr, op.key, "an object", &op.value));
                };
                let id = match get(members, "operationId") {
                    None => None,
                    Some(Json::String(id)) => Some(*id),
                    Some(other) => {
                        return Err(wrong(
                            &join(&ptr, "operationId"),
                            "operationId",
                            "a string",
                            other,
                        ));
                    }
                };
                let name = id.map_or_else(|| derived_name(op.key, m.key), str::to_owned);
                ops.push(Operation {
                    method: op.key,
                    item,
                    op: members,
                    item_ptr: item_ptr.clone(),
                    ptr,
                    id,
                    name,
                    clash: None,
                });
            }
        }
        Ok(ops)
    }

    /// Webhooks (3.1) are requests the API sends: reported, not imported.
    fn webhooks(&mut self) -> Result<(), ConversionError> {
        match get(self.root, "webhooks") {
            None => Ok(()),
            Some(Json::Object(hooks)) => {
                for h in *hooks {
                    self.out.note(
                        None,
                        Severity::Info,
                        Code::OperationSkipped,
                        "webhooks",
                        join("/webhooks", h.key),
                        format!(
                            "webhook `{}` describes requests the API sends, not operations a client calls; not imported",
                            h.key
                        ),
                    );
                }
                Ok(())
            }
            Some(other) => Err(wrong("/webhooks", "webhooks", "an object", other)),
        }
    }

    /// Writes the tool of one operation.
    fn operation(&mut self, w: &mut Writer<'_>, op: &Operation<'a>) -> Result<(), ConversionError> {
        self.defs.clear();
        self.seen.clear();
        self.noted.clear();
        let (tool, ptr) = (self.tool, op.ptr.as_str());
        self.out.place(tool, "", ptr.to_owned());
        if op.id.is_some() {
            self.out.place(tool, "/name", join(ptr, "operationId"));
        }
        if let Some((severity, message)) = &op.clash {
            let (feature, at) = match op.id {
                Some(_) => ("operationId", join(ptr, "operationId")),
                None => ("name", ptr.to_owned()),
            };
            self.note(*severity, Code::NameClash, feature, at, message.clone());
        }
        let description = self.description(op)?;
        self.callbacks(op)?;
        let mut params = self.parameters(op)?;
        let mut keys = Names::default();
        for p in &mut params {
            p.key = unique_key(p.name, Some(p.loc), &mut keys);
            if p.key != p.name {
                let message = format!(
                    "{} parameter `{}` has the name of another argument; it is the property `{}`",
                    p.loc.as_str(),
                    p.name,
                    p.key
                );
                self.note(
                    Severity::Warning,
                    Code::NameClash,
                    "name",
                    join(&p.ptr, "name"),
                    message,
                );
            }
        }
        let body = self.body(op, &mut keys)?;
        for p in &params {
            if let Some(v) = get(p.obj, "required").filter(|v| !matches!(v, Json::Bool(_))) {
                return Err(wrong(&join(&p.ptr, "required"), "required", "a boolean", v));
            }
        }
        let body_key = match &body {
            Body::Property { key, required: true, .. } => Some(key.as_str()),
            _ => None,
        };
        // `mergeable` checked that a merged body's `required` lists strings.
        let body_names = match &body {
            Body::Merged { schema, .. } => match get(schema, "required") {
                Some(Json::Array(names)) => *names,
                _ => &[],
            },
            _ => &[],
        };
        let required: Vec<&str> = params
            .iter()
            .filter(|p| p.loc == Loc::Path || get_bool(p.obj, "required") == Some(true))
            .map(|p| p.key.as_str())
            .chain(body_names.iter().filter_map(Json::as_str))
            .chain(body_key)
            .collect();

        w.begin_object();
        w.key_plain("name");
        w.string(&op.name);
        if let Some(d) = &description {
            w.key_plain("description");
            w.string(d);
        }
        w.key_plain("inputSchema");
        w.begin_object();
        w.key_plain("type");
        w.string_plain("object");
        if let Body::Merged { schema, ptr, description } = &body {
            self.merged_annotations(w, schema, ptr, *description);
        }
        w.key_plain("properties");
        w.begin_object();
        for p in &params {
            self.parameter(w, p)?;
        }
        match &body {
            Body::None => {}
            Body::Property { key, schema, ptr, description, .. } => {
                let extras = Extras { description: *description, ..Extras::default() };
                self.out.place(tool, &property_prefix(key), ptr.clone());
                w.key(key);
                let root = Path::ROOT;
                self.schema(w, schema, &root.push(Seg::Raw(ptr)), &extras);
            }
            Body::Merged { schema, ptr, .. } => {
                if let Some(Json::Object(props)) = get(schema, "properties") {
                    let base = join(ptr, "properties");
                    let root = Path::ROOT;
                    let path = root.push(Seg::Raw(&base));
                    for m in *props {
                        self.out.place(tool, &property_prefix(m.key), join(&base, m.key));
                        w.key(m.key);
                        self.schema(w, &m.value, &path.push(Seg::Key(m.key)), &Extras::default());
                    }
                }
            }
        }
        w.end_object();
        if let Body::Merged { schema, ptr, .. } = &body
            && let Some(extra) = get(schema, "additionalProperties")
        {
            let at = join(ptr, "additionalProperties");
            self.out.place(tool, "/inputSchema/additionalProperties", at.clone());
            w.key_plain("additionalProperties");
            let root = Path::ROOT;
            self.schema(w, extra, &root.push(Seg::Raw(&at)), &Extras::default());
        }
        if !required.is_empty() {
            w.key_plain("required");
            w.begin_array();
            for r in &required {
                w.element();
                w.string(r);
            }
            w.end_array();
        }
        self.write_defs(w);
        w.end_object();
        if self.v30 {
            w.key_plain(DIALECT);
            w.string_plain("openapi-3.0");
        }
        w.end_object();
        Ok(())
    }

    /// The merged body's title and description, on the input schema's root.
    fn merged_annotations(
        &mut self,
        w: &mut Writer<'_>,
        schema: &'a [Member<'a>],
        ptr: &str,
        body_description: Option<&str>,
    ) {
        if let Some(title) = get(schema, "title") {
            self.out.place(self.tool, "/inputSchema/title", join(ptr, "title"));
            w.key_plain("title");
            w.json(title);
        }
        let own = get(schema, "description").and_then(Json::as_str);
        let text = join_text(body_description.unwrap_or(""), own.unwrap_or(""));
        if !text.is_empty() {
            self.out.place(self.tool, "/inputSchema/description", join(ptr, "description"));
            w.key_plain("description");
            w.string(&text);
        }
    }

    /// The component schemas the tool uses, and the ones they use, as `$defs`.
    fn write_defs(&mut self, w: &mut Writer<'_>) {
        if self.defs.is_empty() {
            return;
        }
        w.key_plain("$defs");
        w.begin_object();
        let mut k = 0;
        // Writing one definition may add others to the list.
        while let Some(&name) = self.defs.get(k) {
            k += 1;
            let Some(schema) = self.component("schemas", name) else { continue };
            let at = join("/components/schemas", name);
            let mut prefix = String::from("/inputSchema/$defs");
            write_seg(&mut prefix, Seg::Key(name));
            self.out.place(self.tool, &prefix, at.clone());
            w.key(name);
            let root = Path::ROOT;
            self.schema(w, schema, &root.push(Seg::Raw(&at)), &Extras::default());
        }
        w.end_object();
    }

    /// `summary` and `description` of the operation, else of its path item.
    fn description(&mut self, op: &Operation<'a>) -> Result<Option<String>, ConversionError> {
        for (members, ptr) in [(op.op, &op.ptr), (op.item, &op.item_ptr)] {
            let summary = opt_str(members, "summary", ptr)?.unwrap_or("");
            let description = opt_str(members, "description", ptr)?.unwrap_or("");
            let text = join_text(summary, description);
            if !text.is_empty() {
                let key = if description.is_empty() { "summary" } else { "description" };
                self.out.place(self.tool, "/description", join(ptr, key));
                return Ok(Some(text));
            }
        }
        Ok(None)
    }

    /// Callbacks are requests the API makes: reported, not imported.
    fn callbacks(&mut self, op: &Operation<'a>) -> Result<(), ConversionError> {
        let at = join(&op.ptr, "callbacks");
        match get(op.op, "callbacks") {
            None => {}
            Some(Json::Object(callbacks)) => {
                for c in *callbacks {
                    self.note(
                        Severity::Info,
                        Code::OperationSkipped,
                        "callbacks",
                        join(&at, c.key),
                        format!(
                            "callback `{}` describes requests the API sends back, not operations a client calls; not imported",
                            c.key
                        ),
                    );
                }
            }
            Some(other) => return Err(wrong(&at, "callbacks", "an object", other)),
        }
        Ok(())
    }

    /// The operation's parameters: the path item's, with the operation's replacing those of
    /// the same name and location, then the operation's others; ordered path, query, header,
    /// cookie (stable within each).
    fn parameters(&mut self, op: &Operation<'a>) -> Result<Vec<Param<'a>>, ConversionError> {
        let mut list: Vec<Param<'a>> = Vec::new();
        // The path item's parameters by name and location, for the operation's to replace.
        let mut declared: BTreeMap<(&'a str, Loc), usize> = BTreeMap::new();
        for (from_item, members, base) in [(true, op.item, &op.item_ptr), (false, op.op, &op.ptr)] {
            let base = join(base, "parameters");
            let items = match get(members, "parameters") {
                None => continue,
                Some(Json::Array(items)) => *items,
                Some(other) => return Err(wrong(&base, "parameters", "an array", other)),
            };
            for (j, item) in items.iter().enumerate() {
                let ptr = join_index(&base, j);
                let (obj, ptr, ref_description) = match self.deref(item, ptr) {
                    Deref::Found(Json::Object(obj), at, d) => (*obj, at, d),
                    Deref::Found(other, at, _) => {
                        return Err(wrong(&at, "parameter", "an object", other));
                    }
                    Deref::Unresolved { reference, at, code: _, why } => {
                        self.note(
                            Severity::Warning,
                            Code::ParameterSkipped,
                            "$ref",
                            join(&at, "$ref"),
                            format!(
                                "parameter `$ref` `{reference}` {why}; the parameter is left out"
                            ),
                        );
                        continue;
                    }
                };
                let name = required_str(obj, "name", &ptr)?;
                let loc_name = required_str(obj, "in", &ptr)?;
                let Some(loc) = Loc::parse(loc_name) else {
                    return Err(err(
                        &join(&ptr, "in"),
                        ErrorKind::Shape(format!(
                            "parameter `in` must be path, query, header or cookie, found {loc_name:?}"
                        )),
                    ));
                };
                let param = Param { name, loc, obj, ptr, ref_description, key: String::new() };
                let replaced = match from_item {
                    true => None,
                    false => declared.get(&(name, loc)).and_then(|&i| list.get_mut(i)),
                };
                match replaced {
                    Some(slot) => *slot = param,
                    None => {
                        if from_item {
                            declared.insert((name, loc), list.len());
                        }
                        list.push(param);
                    }
                }
            }
        }
        let mut kept = Vec::with_capacity(list.len());
        for p in list {
            if p.loc == Loc::Header
                && IGNORED_HEADERS.iter().any(|h| h.eq_ignore_ascii_case(p.name))
            {
                self.note(
                    Severity::Info,
                    Code::ParameterSkipped,
                    "name",
                    join(&p.ptr, "name"),
                    format!(
                        "header parameter `{}` is ignored, as the OpenAPI specification says for Accept, Content-Type and Authorization",
                        p.name
                    ),
                );
            } else {
                kept.push(p);
            }
        }
        kept.sort_by_key(|p| p.loc);
        Ok(kept)
    }

    /// Writes one parameter's property: its schema (or its `content` media type's), with the
    /// parameter's description, `deprecated` and examples; how it is serialized is reported.
    fn parameter(&mut self, w: &mut Writer<'_>, p: &Param<'a>) -> Result<(), ConversionError> {
        let (schema, schema_ptr) = match (get(p.obj, "schema"), get(p.obj, "content")) {
            (Some(s), _) => (s, join(&p.ptr, "schema")),
            (None, Some(Json::Object(content))) => {
                let at = join(&p.ptr, "content");
                let Some(media) = content.first() else {
                    return Err(err(
                        &at,
                        ErrorKind::Shape("a parameter's `content` holds one media type".into()),
                    ));
                };
                let media_ptr = join(&at, media.key);
                let (severity, how) = if is_json(media.key) {
                    (Severity::Info, "JSON text")
                } else {
                    (Severity::Warning, "text of that media type")
                };
                self.note(
                    severity,
                    Code::ParameterStyle,
                    "content",
                    media_ptr.clone(),
                    format!(
                        "parameter `{}` is sent as `{}` ({how}); the tool takes its value, and the caller must serialize it",
                        p.name, media.key
                    ),
                );
                match media.value {
                    Json::Object(m) => {
                        (get(m, "schema").unwrap_or(&ANY), join(&media_ptr, "schema"))
                    }
                    ref other => return Err(wrong(&media_ptr, media.key, "an object", other)),
                }
            }
            (None, Some(other)) => {
                return Err(wrong(&join(&p.ptr, "content"), "content", "an object", other));
            }
            (None, None) => {
                return Err(err(
                    &p.ptr,
                    ErrorKind::MissingMember {
                        member: "schema",
                        hint: " (a parameter has `schema` or `content`)".to_owned(),
                    },
                ));
            }
        };
        self.serialization(p)?;
        let mut extras = Extras {
            description: p.ref_description.or(opt_str(p.obj, "description", &p.ptr)?),
            deprecated: get_bool(p.obj, "deprecated") == Some(true),
            examples: Vec::new(),
        };
        if let Some(example) = get(p.obj, "example") {
            extras.examples.push(*example);
        }
        if let Some(Json::Object(examples)) = get(p.obj, "examples") {
            let at = join(&p.ptr, "examples");
            for e in *examples {
                if let Deref::Found(Json::Object(example), _, _) =
                    self.deref(&e.value, join(&at, e.key))
                    && let Some(value) = get(example, "value")
                {
                    extras.examples.push(*value);
                }
            }
        }
        self.out.place(self.tool, &property_prefix(&p.key), schema_ptr.clone());
        w.key(&p.key);
        let root = Path::ROOT;
        self.schema(w, schema, &root.push(Seg::Raw(&schema_ptr)), &extras);
        Ok(())
    }

    /// Reports how a parameter is serialized: `style`, `explode`, `allowReserved`,
    /// `allowEmptyValue` (a warning when not the default), and a cookie's place.
    /// Reports a serialization member of parameter `p`: info when it is the default, else a
    /// warning, since a tool definition has no place for it.
    fn style_note(
        &mut self,
        p: &Param<'a>,
        key: &str,
        value: impl std::fmt::Display,
        default: bool,
    ) {
        let (severity, what) = if default {
            (Severity::Info, "the default; nothing is lost")
        } else {
            (
                Severity::Warning,
                "a tool definition cannot say so, and the caller must serialize the value that way",
            )
        };
        self.note(
            severity,
            Code::ParameterStyle,
            key,
            join(&p.ptr, key),
            format!("parameter `{}` has `{key}: {value}`: {what}", p.name),
        );
    }

    fn serialization(&mut self, p: &Param<'a>) -> Result<(), ConversionError> {
        let default_style = p.loc.default_style();
        let style = match opt_str(p.obj, "style", &p.ptr)? {
            Some(style) => {
                self.style_note(p, "style", style, style == default_style);
                style
            }
            None => default_style,
        };
        for (key, default) in
            [("explode", style == "form"), ("allowReserved", false), ("allowEmptyValue", false)]
        {
            let value = match get(p.obj, key) {
                None => continue,
                Some(Json::Bool(b)) => *b,
                Some(other) => return Err(wrong(&join(&p.ptr, key), key, "a boolean", other)),
            };
            self.style_note(p, key, value, value == default);
        }
        if p.loc == Loc::Cookie {
            self.note(
                Severity::Info,
                Code::ParameterStyle,
                "in",
                join(&p.ptr, "in"),
                format!(
                    "parameter `{}` is a cookie: the tool takes its value, and the caller must send it in the Cookie header",
                    p.name
                ),
            );
        }
        Ok(())
    }

    /// The request body: merged into the parameters when it is a plain object that fits,
    /// else one property (`body`, or a free name).
    fn body(&mut self, op: &Operation<'a>, keys: &mut Names) -> Result<Body<'a>, ConversionError> {
        let Some(v) = get(op.op, "requestBody") else { return Ok(Body::None) };
        let (rb, at, ref_description) = match self.deref(v, join(&op.ptr, "requestBody")) {
            Deref::Found(Json::Object(rb), at, d) => (*rb, at, d),
            Deref::Found(other, at, _) => {
                return Err(wrong(&at, "requestBody", "an object", other));
            }
            Deref::Unresolved { reference, at, code, why } => {
                self.note(
                    Severity::Warning,
                    code,
                    "$ref",
                    join(&at, "$ref"),
                    format!(
                        "request body `$ref` `{reference}` {why}; the tool has no body argument"
                    ),
                );
                return Ok(Body::None);
            }
        };
        let required = match get(rb, "required") {
            None => false,
            Some(Json::Bool(b)) => *b,
            Some(other) => {
                return Err(wrong(&join(&at, "required"), "required", "a boolean", other));
            }
        };
        let description = ref_description.or(opt_str(rb, "description", &at)?);
        let content_ptr = join(&at, "content");
        let content = match get(rb, "content") {
            Some(Json::Object(content)) => *content,
            Some(other) => return Err(wrong(&content_ptr, "content", "an object", other)),
            None => {
                return Err(err(
                    &at,
                    ErrorKind::MissingMember { member: "content", hint: String::new() },
                ));
            }
        };
        let chosen = content
            .iter()
            .position(|m| essence(m.key).eq_ignore_ascii_case("application/json"))
            .or_else(|| content.iter().position(|m| is_json(m.key)));
        let Some(media) = content.get(chosen.unwrap_or(0)) else {
            self.note(
                Severity::Info,
                Code::BodyNotJson,
                "content",
                content_ptr,
                "the request body lists no media type; the tool has no body argument".into(),
            );
            return Ok(Body::None);
        };
        let media_ptr = join(&content_ptr, media.key);
        let Json::Object(media_members) = media.value else {
            return Err(wrong(&media_ptr, media.key, "an object", &media.value));
        };
        if chosen.is_none() {
            let encoding = if get(media_members, "encoding").is_some() {
                "; its `encoding` (per-property content types, headers and styles) has no place in a tool either"
            } else {
                ""
            };
            self.note(
                Severity::Warning,
                Code::BodyNotJson,
                media.key,
                media_ptr.clone(),
                format!(
                    "the request body is `{}`, not JSON: its schema describes the arguments, and the caller must encode them as `{}`{encoding}",
                    media.key, media.key
                ),
            );
        }
        let others: Vec<String> =
            content.iter().filter(|m| m.key != media.key).map(|m| format!("`{}`", m.key)).collect();
        if !others.is_empty() {
            self.note(
                Severity::Info,
                Code::BodyNotJson,
                "content",
                content_ptr,
                format!(
                    "the request body may also be sent as {}; the tool follows `{}`",
                    others.join(", "),
                    media.key
                ),
            );
        }
        let schema = get(media_members, "schema").unwrap_or(&ANY);
        let ptr = join(&media_ptr, "schema");
        if let Some((members, obj_ptr)) = self.mergeable(schema, ptr.clone(), required, keys) {
            return Ok(Body::Merged { schema: members, ptr: obj_ptr, description });
        }
        let key = unique_key("body", None, keys);
        if key != "body" {
            self.note(
                Severity::Warning,
                Code::NameClash,
                "requestBody",
                at,
                format!("a parameter is called `body`; the request body is the property `{key}`"),
            );
        }
        Ok(Body::Property { key, schema, ptr, required, description })
    }

    /// The body's object schema and its pointer, when its properties can stand next to the
    /// parameters without changing what is accepted: an object schema (through `$ref`s to
    /// it) with `properties` and nothing but `type: object`, `required`,
    /// `additionalProperties`, `title` and `description` beside them; no property (or
    /// required name) taken by a parameter; and a body that is required, or requires nothing.
    fn mergeable(
        &self,
        schema: &'a Json<'a>,
        ptr: String,
        body_required: bool,
        keys: &Names,
    ) -> Option<(&'a [Member<'a>], String)> {
        let (Json::Object(members), ptr) = (match self.deref(schema, ptr) {
            Deref::Found(v, at, _) => (v, at),
            Deref::Unresolved { .. } => return None,
        }) else {
            return None;
        };
        let mut names: Vec<&str> = Vec::new();
        let mut has_properties = false;
        for m in *members {
            match (m.key, &m.value) {
                ("type", Json::String("object")) => {}
                ("type", Json::Array([Json::String("object")])) => {}
                ("properties", Json::Object(props)) if !props.is_empty() => {
                    has_properties = true;
                    names.extend(props.iter().map(|p| p.key));
                }
                ("required", Json::Array(list)) => {
                    if !body_required && !list.is_empty() {
                        return None;
                    }
                    for r in *list {
                        names.push(r.as_str()?);
                    }
                }
                ("additionalProperties" | "title", _) => {}
                ("description", Json::String(_)) => {}
                _ => return None,
            }
        }
        let clash = names.iter().any(|n| keys.contains(n));
        (has_properties && !clash).then_some((*members, ptr))
    }

    /// Writes a schema, `$ref`s rewritten, with `extras` from around it.
    fn schema(
        &mut self,
        w: &mut Writer<'_>,
        v: &'a Json<'a>,
        path: &Path<'_>,
        extras: &Extras<'a>,
    ) {
        let plain =
            extras.description.is_none() && !extras.deprecated && extras.examples.is_empty();
        match v {
            Json::Object(members) => self.object(w, members, path, extras),
            Json::Bool(b) if plain => w.bool(*b),
            Json::Bool(true) => self.object(w, &[], path, extras),
            Json::Bool(false) => self.object(w, &NOTHING, path, extras),
            // Not a schema: written as it is, for lowering to reject with this pointer.
            other => w.json(other),
        }
    }

    fn object(
        &mut self,
        w: &mut Writer<'_>,
        members: &'a [Member<'a>],
        path: &Path<'_>,
        extras: &Extras<'a>,
    ) {
        let reference = get(members, "$ref").and_then(Json::as_str);
        let target = reference.map(|r| self.reference(r));
        // A reference that stays out of the tool: the schema says so in its description.
        let unresolved = match (reference, &target) {
            (Some(r), Some(Target::External)) => Some((
                Code::RefExternal,
                format!(
                    "(schema `{r}` is in another document, which is never fetched: any value is accepted here)"
                ),
            )),
            (Some(r), Some(Target::Dangling)) => Some((
                Code::RefDangling,
                format!(
                    "(schema `{r}` does not resolve in the document: any value is accepted here)"
                ),
            )),
            (Some(r), Some(Target::Elsewhere)) => Some((
                Code::RefDangling,
                format!(
                    "(schema `{r}` is not under `components/schemas`, the only place an import takes schemas from: any value is accepted here)"
                ),
            )),
            _ => None,
        };
        if let Some((code, text)) = &unresolved {
            let message = format!(
                "{}; the `$ref` is left out",
                text.trim_start_matches('(').trim_end_matches(')')
            );
            self.note(
                Severity::Warning,
                *code,
                "$ref",
                path.push(Seg::Key("$ref")).to_pointer(),
                message,
            );
        }
        let note = unresolved.as_ref().map(|(_, text)| text.as_str());
        let own = get(members, "description");
        let described = |own: &str| {
            let text = join_text(extras.description.unwrap_or(""), own);
            match note {
                Some(n) if text.is_empty() => n.to_owned(),
                Some(n) => format!("{text} {n}"),
                None => text,
            }
        };
        w.begin_object();
        for m in members {
            let child = path.push(Seg::Key(m.key));
            match (m.key, &m.value) {
                ("$ref", Json::String(_)) => {
                    if let Some(Target::Def(rewritten)) = &target {
                        w.key_plain("$ref");
                        w.string(rewritten);
                    }
                }
                ("description", Json::String(d))
                    if extras.description.is_some() || note.is_some() =>
                {
                    w.key_plain("description");
                    w.string(&described(d));
                }
                (key, value) => {
                    w.key(key);
                    self.keyword(w, key, value, &child);
                }
            }
        }
        if own.is_none() && (extras.description.is_some() || note.is_some()) {
            w.key_plain("description");
            w.string(&described(""));
        }
        if extras.deprecated && get(members, "deprecated").is_none() {
            w.key_plain("deprecated");
            w.bool(true);
        }
        if !extras.examples.is_empty()
            && get(members, "examples").is_none()
            && get(members, "example").is_none()
        {
            w.key_plain("examples");
            w.begin_array();
            for e in &extras.examples {
                w.element();
                w.json(e);
            }
            w.end_array();
        }
        w.end_object();
    }

    /// Writes the value of keyword `key`: subschemas through [`Translator::schema`],
    /// anything else (`enum`, `example`, vendor keywords) as it is.
    fn keyword(&mut self, w: &mut Writer<'_>, key: &str, value: &'a Json<'a>, path: &Path<'_>) {
        let none = Extras::default();
        match (subschemas(key), value) {
            (Sub::One, Json::Array(list)) if key == "items" => self.list(w, list, path),
            (Sub::One, v) => self.schema(w, v, path, &none),
            (Sub::List, Json::Array(list)) => self.list(w, list, path),
            (Sub::Map, Json::Object(map)) => {
                w.begin_object();
                for m in *map {
                    w.key(m.key);
                    self.schema(w, &m.value, &path.push(Seg::Key(m.key)), &none);
                }
                w.end_object();
            }
            (_, v) => w.json(v),
        }
    }

    fn list(&mut self, w: &mut Writer<'_>, list: &'a [Json<'a>], path: &Path<'_>) {
        w.begin_array();
        for (i, s) in list.iter().enumerate() {
            w.element();
            self.schema(w, s, &path.push(Seg::Index(i)), &Extras::default());
        }
        w.end_array();
    }

    /// Where `$ref` `r` of a schema leads; a component schema joins the tool's `$defs`.
    fn reference(&mut self, r: &str) -> Target {
        let Some(fragment) = r.strip_prefix('#') else { return Target::External };
        let Some(rest) = fragment.strip_prefix("/components/schemas/") else {
            return if self.resolve(fragment).is_some() {
                Target::Elsewhere
            } else {
                Target::Dangling
            };
        };
        let token = unescape(rest.split('/').next().unwrap_or(""));
        let Some(name) = self.component_name("schemas", &token) else { return Target::Dangling };
        // A pointer into the component must lead somewhere too.
        if rest.contains('/') && self.resolve(fragment).is_none() {
            return Target::Dangling;
        }
        if self.seen.insert(name) {
            self.defs.push(name);
        }
        Target::Def(format!("#/$defs/{rest}"))
    }

    /// The value at local pointer `fragment` (the part of a `$ref` after `#`).
    fn resolve(&self, fragment: &str) -> Option<&'a Json<'a>> {
        if fragment.is_empty() {
            return None;
        }
        let tokens: Vec<String> = fragment.strip_prefix('/')?.split('/').map(unescape).collect();
        let (mut cur, rest) = match tokens.as_slice() {
            [c, kind, name, rest @ ..]
                if c == "components" && self.components.contains_key(kind.as_str()) =>
            {
                (self.component(kind, name)?, rest)
            }
            [first, rest @ ..] => (get(self.root, first)?, rest),
            [] => return None,
        };
        for token in rest {
            cur = match cur {
                Json::Object(m) => get(m, token)?,
                Json::Array(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(cur)
    }

    /// Entry `name` of the `components` map `kind`.
    fn component(&self, kind: &str, name: &str) -> Option<&'a Json<'a>> {
        let list = self.components.get(kind)?;
        let i = list.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
        list.get(i).map(|(_, v)| *v)
    }

    /// The key (as the document holds it) of entry `name` of the `components` map `kind`.
    fn component_name(&self, kind: &str, name: &str) -> Option<&'a str> {
        let list = self.components.get(kind)?;
        let i = list.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
        list.get(i).map(|(n, _)| *n)
    }

    /// Follows the local `$ref`s of a parameter, request body, path item or example.
    fn deref(&self, v: &'a Json<'a>, ptr: String) -> Deref<'a> {
        let (mut cur, mut at, mut description) = (v, ptr, None);
        for _ in 0..MAX_HOPS {
            let Json::Object(members) = cur else { break };
            let Some(Json::String(reference)) = get(members, "$ref") else { break };
            description = description.or(get(members, "description").and_then(Json::as_str));
            let Some(fragment) = reference.strip_prefix('#') else {
                return Deref::Unresolved {
                    reference,
                    at,
                    code: Code::RefExternal,
                    why: "is in another document, which is never fetched",
                };
            };
            match self.resolve(fragment) {
                Some(next) => {
                    cur = next;
                    at = fragment.to_owned();
                }
                None => {
                    return Deref::Unresolved {
                        reference,
                        at,
                        code: Code::RefDangling,
                        why: "does not resolve in the document",
                    };
                }
            }
        }
        if let Json::Object(members) = cur
            && let Some(Json::String(reference)) = get(members, "$ref")
        {
            return Deref::Unresolved {
                reference,
                at,
                code: Code::RefRecursive,
                why: "starts a chain of references that does not end",
            };
        }
        Deref::Found(cur, at, description)
    }

    fn note(
        &mut self,
        severity: Severity,
        code: Code,
        feature: &str,
        pointer: String,
        message: String,
    ) {
        if self.noted.insert((code.as_str(), pointer.clone())) {
            self.out.note(Some((self.tool, &self.name)), severity, code, feature, pointer, message);
        }
    }
}

/// How a keyword's value holds subschemas.
enum Sub {
    One,
    List,
    Map,
    No,
}

fn subschemas(key: &str) -> Sub {
    match key {
        "items"
        | "contains"
        | "additionalProperties"
        | "propertyNames"
        | "if"
        | "then"
        | "else"
        | "not"
        | "unevaluatedItems"
        | "unevaluatedProperties"
        | "contentSchema"
        | "additionalItems" => Sub::One,
        "allOf" | "anyOf" | "oneOf" | "prefixItems" => Sub::List,
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
            Sub::Map
        }
        _ => Sub::No,
    }
}

/// Names handed out so far, with the next suffix to try for each base: many clashes on one
/// name cost a step each, not a scan from `_2` every time.
#[derive(Default)]
struct Names {
    used: BTreeSet<String>,
    next: BTreeMap<String, u64>,
}

impl Names {
    fn contains(&self, name: &str) -> bool {
        self.used.contains(name)
    }

    fn insert(&mut self, name: &str) {
        self.used.insert(name.to_owned());
    }

    /// The first free `<base>_<n>` (n ≥ 2) that `reserved` does not hold either.
    fn suffixed(&mut self, base: &str, reserved: impl Fn(&str) -> bool) -> String {
        let Names { used, next } = self;
        let n = next.entry(base.to_owned()).or_insert(2);
        loop {
            let candidate = format!("{base}_{n}");
            *n += 1;
            if !used.contains(&candidate) && !reserved(&candidate) {
                return candidate;
            }
        }
    }
}

/// Gives every operation a tool name, unique in the catalog: its `operationId` (the first
/// holder keeps a repeated one), else `<method>_<path>`; a name taken already gets the first
/// free `_2`, `_3`, … suffix. Names are given over all operations, so a filter does not
/// change them.
fn name_operations(ops: &mut [Operation<'_>]) {
    let ids: BTreeSet<String> = ops.iter().filter_map(|op| op.id.map(str::to_owned)).collect();
    let mut names = Names::default();
    for op in ops.iter_mut() {
        let taken = names.contains(&op.name) || (op.id.is_none() && ids.contains(&op.name));
        if taken {
            let name = names.suffixed(&op.name, |c| ids.contains(c));
            op.clash = Some(match op.id {
                Some(id) => (
                    Severity::Warning,
                    format!(
                        "operationId `{id}` is used by an earlier operation too; this one is named `{name}`"
                    ),
                ),
                None => (
                    Severity::Info,
                    format!(
                        "the {} operation has no operationId, and its derived name `{}` is taken; it is named `{name}`",
                        op.method, op.name
                    ),
                ),
            });
            op.name = name;
        }
        names.insert(&op.name);
    }
}

/// `<method>_<path>` with every character outside `[A-Za-z0-9_.-]` made `_`, runs of `_`
/// collapsed and `_` trimmed from the ends: `get /pets/{id}` → `get_pets_id`.
fn derived_name(method: &str, path: &str) -> String {
    let mut out = String::with_capacity(method.len() + path.len() + 1);
    for c in method.chars().chain(['_']).chain(path.chars()) {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '.' | '-') { c } else { '_' };
        if c == '_' && (out.is_empty() || out.ends_with('_')) {
            continue;
        }
        out.push(c);
    }
    while out.ends_with('_') {
        out.pop();
    }
    out
}

/// `name`, or when an earlier argument has it, `<name>_<location>` (for a parameter), then
/// the first free `_2`, `_3`, … suffix; the key is taken.
fn unique_key(name: &str, loc: Option<Loc>, keys: &mut Names) -> String {
    let key = if !keys.contains(name) {
        name.to_owned()
    } else {
        let base = match loc {
            Some(loc) => format!("{name}_{}", loc.as_str()),
            None => name.to_owned(),
        };
        if keys.contains(&base) { keys.suffixed(&base, |_| false) } else { base }
    };
    keys.insert(&key);
    key
}

/// Two texts as one description: the second alone when it starts with the whole first (a
/// description that repeats its summary, up to a word boundary), else both, separated by a
/// blank line.
fn join_text(first: &str, second: &str) -> String {
    let (a, b) = (first.trim(), second.trim());
    let repeats = b.strip_prefix(a).is_some_and(|rest| !rest.starts_with(char::is_alphanumeric));
    if a.is_empty() || repeats {
        b.to_owned()
    } else if b.is_empty() {
        a.to_owned()
    } else {
        format!("{a}\n\n{b}")
    }
}

/// The media type without its parameters: `application/json; charset=utf-8` →
/// `application/json`.
fn essence(media: &str) -> &str {
    media.split(';').next().unwrap_or("").trim()
}

/// Whether a media type is JSON: `application/json`, or any `…/…+json`.
fn is_json(media: &str) -> bool {
    let e = essence(media);
    e.eq_ignore_ascii_case("application/json")
        || e.len() > 5 && e.get(e.len() - 5..).is_some_and(|s| s.eq_ignore_ascii_case("+json"))
}

/// One RFC 6901 reference token decoded: `~1` → `/`, `~0` → `~`, and `%XX` escapes (a `$ref`
/// is a URI fragment).
fn unescape(token: &str) -> String {
    // Bytes that do not decode to UTF-8 leave the token as it was.
    let token =
        crate::passes::percent_decode(token).map_or_else(|| token.to_owned(), Cow::into_owned);
    if token.contains('~') { token.replace("~1", "/").replace("~0", "~") } else { token }
}

/// The translated tool's pointer to property `key` of its input schema.
fn property_prefix(key: &str) -> String {
    let mut p = String::from("/inputSchema/properties/");
    escape_into(&mut p, key);
    p
}

fn join(base: &str, key: &str) -> String {
    let mut p = String::with_capacity(base.len() + key.len() + 1);
    p.push_str(base);
    write_seg(&mut p, Seg::Key(key));
    p
}

fn join_index(base: &str, i: usize) -> String {
    let mut p = String::with_capacity(base.len() + 4);
    p.push_str(base);
    write_seg(&mut p, Seg::Index(i));
    p
}

fn get<'a>(members: &'a [Member<'a>], key: &str) -> Option<&'a Json<'a>> {
    members.iter().find(|m| m.key == key).map(|m| &m.value)
}

fn get_bool(members: &[Member<'_>], key: &str) -> Option<bool> {
    match get(members, key) {
        Some(Json::Bool(b)) => Some(*b),
        _ => None,
    }
}

fn opt_str<'a>(
    members: &'a [Member<'a>],
    key: &str,
    at: &str,
) -> Result<Option<&'a str>, ConversionError> {
    match get(members, key) {
        None => Ok(None),
        Some(Json::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(&join(at, key), key, "a string", other)),
    }
}

fn required_str<'a>(
    members: &'a [Member<'a>],
    key: &'static str,
    at: &str,
) -> Result<&'a str, ConversionError> {
    opt_str(members, key, at)?.ok_or_else(|| {
        err(at, ErrorKind::MissingMember { member: key, hint: " (in a parameter)".to_owned() })
    })
}

#[cold]
fn err(pointer: &str, kind: ErrorKind) -> ConversionError {
    ConversionError::new(NAME, Direction::ToCanonical, pointer, kind)
}

#[cold]
fn wrong(pointer: &str, member: &str, expected: &'static str, found: &Json<'_>) -> ConversionError {
    err(pointer, ErrorKind::WrongType { member: member.to_owned(), expected, found: found.kind() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_names_keep_the_allowed_characters() {
        assert_eq!(derived_name("get", "/pets/{petId}"), "get_pets_petId");
        assert_eq!(derived_name("post", "/"), "post");
        assert_eq!(derived_name("get", "/v1.0/a-b/{x}/ü"), "get_v1.0_a-b_x");
    }

    #[test]
    fn texts_join_with_a_blank_line_unless_one_repeats_the_other() {
        assert_eq!(join_text("List pets", "Lists all pets."), "List pets\n\nLists all pets.");
        assert_eq!(join_text("List pets", "List pets of the store."), "List pets of the store.");
        assert_eq!(join_text(" ", "only"), "only");
        assert_eq!(join_text("only", ""), "only");
        assert_eq!(join_text("Id", "Identifier of the pet"), "Id\n\nIdentifier of the pet");
        assert_eq!(join_text("Same", "Same"), "Same");
    }

    #[test]
    fn media_types() {
        assert!(is_json("application/json"));
        assert!(is_json("Application/JSON; charset=utf-8"));
        assert!(is_json("application/merge-patch+json"));
        assert!(!is_json("multipart/form-data"));
        assert!(!is_json("+json"));
        assert!(!is_json("text/plain"));
    }

    #[test]
    fn tokens_unescape() {
        assert_eq!(unescape("a~1b~0c"), "a/b~c");
        assert_eq!(unescape("Pet%20Store"), "Pet Store");
        assert_eq!(unescape("bad%zz"), "bad%zz");
        assert_eq!(unescape("%7E01"), "~1");
    }

    #[test]
    fn keys_get_the_location_then_a_number() {
        let mut keys = Names::default();
        keys.insert("id");
        keys.insert("id_query");
        assert_eq!(unique_key("x", Some(Loc::Query), &mut keys), "x");
        assert_eq!(unique_key("id", Some(Loc::Header), &mut keys), "id_header");
        assert_eq!(unique_key("id", Some(Loc::Query), &mut keys), "id_query_2");
        assert_eq!(unique_key("id", Some(Loc::Query), &mut keys), "id_query_3");
        assert_eq!(unique_key("id", None, &mut keys), "id_2");
        assert_eq!(unique_key("x", None, &mut keys), "x_2");
    }
}
