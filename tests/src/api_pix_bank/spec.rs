//! Every request the simulated bank receives is checked against the official API Pix OpenAPI
//! (`tests/data/api-pix-openapi-2.9.0.yaml`, the BCB's file as published): the path and method
//! must be an operation of the spec, the query parameters those the operation declares (each of
//! its schema), and the JSON body must match the operation's request schema.
//!
//! The spec's schemas are OpenAPI 3.0; they are turned into JSON Schema 2020-12 here:
//! - `$ref`s are inlined, so each operation's schema stands alone;
//! - objects are closed: a field the spec does not declare fails. As the spec composes objects
//!   with `allOf`/`oneOf`, an object is closed with `unevaluatedProperties: false` where it is
//!   used, never inside a composition (whose parts see only their own fields);
//! - patterns match the whole value, as the banks enforce them (the spec writes them unanchored,
//!   and a few in JavaScript's `/…/` form, which is read as the regular expression inside).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, Validator};
use serde_json::{Map, Value};

/// The spec, as the repository keeps it (read at build time: nothing is read from outside the
/// repository when tests run).
const OPENAPI_YAML: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/data/api-pix-openapi-2.9.0.yaml"
));

/// One thing a request got wrong, in the spec's `violacoes` shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// What is wrong (pt-BR, with the validator's detail).
    pub razao: String,
    /// Where: a body field as `cob.valor.original`, or a parameter's name.
    pub propriedade: String,
}

/// A path segment of an operation's path template.
#[derive(Debug)]
enum Segment {
    Literal(String),
    Param(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ParamType {
    String,
    Integer,
    Number,
    Boolean,
}

struct Param {
    name: String,
    in_path: bool,
    required: bool,
    kind: ParamType,
    validator: Validator,
}

/// One operation of the spec: a method on a path template.
pub(crate) struct Operation {
    /// `GET`, `PUT`, …
    pub method: String,
    /// The spec's path template, `/cob/{txid}`.
    pub template: String,
    /// The OAuth2 scopes the operation demands.
    pub scopes: Vec<String>,
    segments: Vec<Segment>,
    params: Vec<Param>,
    body: Option<Validator>,
    body_required: bool,
    /// The JSON answers' schemas by status (objects left open: the spec lets banks add fields).
    responses: Vec<(u16, Validator)>,
}

/// The operations of the spec that a bank serves on its API base (the payload locations, which
/// are served at the charges' `location` URLs, are not among them).
pub(crate) struct ApiSpec {
    operations: Vec<Operation>,
    /// The body the bank POSTs to a webhook (`WebhookPixBody`).
    callback: Validator,
}

/// What matching a request to the spec found.
pub(crate) enum Matched<'a> {
    /// An operation, with the path parameters' values and what the request got wrong (empty
    /// when it is valid).
    Operation {
        operation: &'a Operation,
        path_params: BTreeMap<String, String>,
        violations: Vec<Violation>,
    },
    /// A path of the spec, but not with this method.
    WrongMethod,
    /// No path of the spec.
    UnknownPath,
}

/// The spec, read and compiled once per test process.
pub(crate) fn api_spec() -> &'static ApiSpec {
    static SPEC: OnceLock<ApiSpec> = OnceLock::new();
    SPEC.get_or_init(|| ApiSpec::load(OPENAPI_YAML))
}

impl ApiSpec {
    fn load(yaml: &str) -> ApiSpec {
        let mut document: Value = serde_norway::from_str(yaml).expect("the OpenAPI file is YAML");
        // An erratum of the published file: the list of Pix is `pix`, as its `properties` and
        // the example `getPix1` say, not `cobs` (copied from the list of charges).
        if let Some(Value::Array(required)) =
            document.pointer_mut("/components/schemas/PixConsultados/required")
        {
            for name in required.iter_mut().filter(|name| *name == "cobs") {
                *name = Value::String("pix".to_owned());
            }
        }
        let paths = document["paths"].as_object().expect("the spec has paths");
        let mut operations = Vec::new();
        for (template, item) in paths {
            if template.contains("UrlAccessToken") {
                continue;
            }
            let shared = item
                .get("parameters")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for method in ["get", "put", "post", "patch", "delete"] {
                let Some(op) = item.get(method) else { continue };
                operations.push(Operation::compile(&document, template, method, op, &shared));
            }
        }
        let callback = document
            .pointer("/components/requestBodies/WebhookPixBody/content/application~1json/schema")
            .expect("the spec describes the webhook's body");
        let mut callback = to_json_schema(resolve(&document, callback, &mut Vec::new()), false);
        drop_uri_formats(&mut callback);
        ApiSpec {
            operations,
            callback: compile_schema(&callback),
        }
    }

    /// The operation `method` `path` (relative to the API base) is, with what it got wrong.
    /// `query` is the decoded query string's pairs; `body` the raw body.
    pub(crate) fn check(
        &self,
        method: &str,
        path: &str,
        query: &[(String, String)],
        content_type: Option<&str>,
        body: &[u8],
    ) -> Matched<'_> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let mut candidates: Vec<(&Operation, BTreeMap<String, String>)> = self
            .operations
            .iter()
            .filter_map(|operation| operation.match_path(&parts).map(|p| (operation, p)))
            .collect();
        if candidates.is_empty() {
            return Matched::UnknownPath;
        }
        // A literal segment wins over a parameter (`/cobv/{txid}` over `/{…}`), as routers do.
        candidates.sort_by_key(|(operation, _)| std::cmp::Reverse(operation.literal_count()));
        let best = candidates[0].0.literal_count();
        let Some((operation, path_params)) = candidates
            .into_iter()
            .take_while(|(operation, _)| operation.literal_count() == best)
            .find(|(operation, _)| operation.method.eq_ignore_ascii_case(method))
        else {
            return Matched::WrongMethod;
        };
        let mut violations = operation.check_params(&path_params, query);
        violations.extend(operation.check_body(content_type, body));
        Matched::Operation {
            operation,
            path_params,
            violations,
        }
    }
}

impl ApiSpec {
    /// What a webhook body the bank sends gets wrong against the spec.
    pub(crate) fn check_callback(&self, body: &Value) -> Vec<Violation> {
        self.callback
            .iter_errors(body)
            .map(|error| {
                let propriedade = error.instance_path().to_string();
                Violation {
                    razao: format!(
                        "A notificação em {propriedade} não respeita o schema: {error}."
                    ),
                    propriedade,
                }
            })
            .collect()
    }
}

impl Operation {
    fn compile(
        document: &Value,
        template: &str,
        method: &str,
        op: &Value,
        shared: &[Value],
    ) -> Operation {
        let segments = template
            .trim_start_matches('/')
            .split('/')
            .map(
                |segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                    Some(name) => Segment::Param(name.to_owned()),
                    None => Segment::Literal(segment.to_owned()),
                },
            )
            .collect();
        let own = op
            .get("parameters")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let params = shared
            .iter()
            .chain(own.iter())
            .map(|param| resolve(document, param, &mut Vec::new()))
            .filter(|param| matches!(param["in"].as_str(), Some("path" | "query")))
            .map(|param| {
                let schema = to_json_schema(param["schema"].clone(), false);
                let kind = match param["schema"]["type"].as_str() {
                    Some("integer") => ParamType::Integer,
                    Some("number") => ParamType::Number,
                    Some("boolean") => ParamType::Boolean,
                    _ => ParamType::String,
                };
                Param {
                    name: param["name"].as_str().unwrap_or_default().to_owned(),
                    in_path: param["in"] == "path",
                    required: param["required"].as_bool().unwrap_or(false),
                    kind,
                    validator: compile_schema(&schema),
                }
            })
            .collect();
        let request_body = op
            .get("requestBody")
            .map(|body| resolve(document, body, &mut Vec::new()));
        let body = request_body.as_ref().and_then(|body| {
            body["content"]["application/json"]
                .get("schema")
                .map(|schema| compile_schema(&to_json_schema(schema.clone(), true)))
        });
        let body_required = request_body
            .as_ref()
            .and_then(|body| body["required"].as_bool())
            .unwrap_or(false);
        let scopes = op["security"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|requirement| requirement["OAuth2"].as_array())
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        let responses = op["responses"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(status, response)| {
                let status: u16 = status.parse().ok().filter(|s| (200..300).contains(s))?;
                let response = resolve(document, response, &mut Vec::new());
                let schema = response["content"]["application/json"].get("schema")?;
                let mut schema = to_json_schema(schema.clone(), false);
                drop_uri_formats(&mut schema);
                Some((status, compile_schema(&schema)))
            })
            .collect();
        Operation {
            method: method.to_ascii_uppercase(),
            template: template.to_owned(),
            scopes,
            segments,
            params,
            body,
            body_required,
            responses,
        }
    }

    /// What an answer with `status` and `body` gets wrong against the spec's response schema
    /// (nothing when the spec gives none for that status).
    pub(crate) fn check_response(&self, status: u16, body: &Value) -> Vec<Violation> {
        let Some((_, validator)) = self.responses.iter().find(|(s, _)| *s == status) else {
            return Vec::new();
        };
        validator
            .iter_errors(body)
            .map(|error| {
                let propriedade = self.property(&error.instance_path().to_string());
                Violation {
                    razao: format!("A resposta em {propriedade} não respeita o schema: {error}."),
                    propriedade,
                }
            })
            .collect()
    }

    fn literal_count(&self) -> usize {
        self.segments
            .iter()
            .filter(|segment| matches!(segment, Segment::Literal(_)))
            .count()
    }

    fn match_path(&self, parts: &[&str]) -> Option<BTreeMap<String, String>> {
        if parts.len() != self.segments.len() {
            return None;
        }
        let mut values = BTreeMap::new();
        for (segment, part) in self.segments.iter().zip(parts) {
            match segment {
                Segment::Literal(literal) if literal == part => {}
                Segment::Literal(_) => return None,
                Segment::Param(_) if part.is_empty() => return None,
                Segment::Param(name) => {
                    values.insert(name.clone(), percent_decode(part));
                }
            }
        }
        Some(values)
    }

    fn check_params(
        &self,
        path_params: &BTreeMap<String, String>,
        query: &[(String, String)],
    ) -> Vec<Violation> {
        let mut violations = Vec::new();
        for (name, value) in path_params {
            if let Some(param) = self.params.iter().find(|p| p.in_path && &p.name == name) {
                violations.extend(param.check(value));
            }
        }
        for (index, (name, value)) in query.iter().enumerate() {
            if query[..index].iter().any(|(earlier, _)| earlier == name) {
                violations.push(Violation {
                    razao: format!("O parâmetro {name} foi informado mais de uma vez."),
                    propriedade: name.clone(),
                });
                continue;
            }
            match self.params.iter().find(|p| !p.in_path && &p.name == name) {
                Some(param) => violations.extend(param.check(value)),
                None => violations.push(Violation {
                    razao: format!(
                        "O parâmetro {name} não existe na operação {} {}.",
                        self.method, self.template
                    ),
                    propriedade: name.clone(),
                }),
            }
        }
        for param in self.params.iter().filter(|p| !p.in_path && p.required) {
            if !query.iter().any(|(name, _)| name == &param.name) {
                violations.push(Violation {
                    razao: format!("O parâmetro obrigatório {} não foi informado.", param.name),
                    propriedade: param.name.clone(),
                });
            }
        }
        violations
    }

    fn check_body(&self, content_type: Option<&str>, body: &[u8]) -> Vec<Violation> {
        let blank = body.iter().all(u8::is_ascii_whitespace);
        let Some(validator) = &self.body else {
            return if blank {
                Vec::new()
            } else {
                vec![Violation {
                    razao: format!(
                        "A operação {} {} não recebe corpo.",
                        self.method, self.template
                    ),
                    propriedade: "corpo".to_owned(),
                }]
            };
        };
        if blank {
            return if self.body_required {
                vec![Violation {
                    razao: "O corpo da requisição é obrigatório.".to_owned(),
                    propriedade: "corpo".to_owned(),
                }]
            } else {
                Vec::new()
            };
        }
        let json_type = content_type
            .and_then(|value| value.split(';').next())
            .is_some_and(|value| value.trim().eq_ignore_ascii_case("application/json"));
        let mut violations = Vec::new();
        if !json_type {
            violations.push(Violation {
                razao: format!(
                    "O corpo deve ser enviado como application/json (veio {}).",
                    content_type.unwrap_or("sem Content-Type")
                ),
                propriedade: "Content-Type".to_owned(),
            });
        }
        let value: Value = match serde_json::from_slice(body) {
            Ok(value) => value,
            Err(error) => {
                violations.push(Violation {
                    razao: format!("O corpo não é JSON válido: {error}."),
                    propriedade: "corpo".to_owned(),
                });
                return violations;
            }
        };
        let errors: Vec<_> = validator.iter_errors(&value).collect();
        let pointers: Vec<String> = errors
            .iter()
            .map(|error| error.instance_path().to_string())
            .collect();
        for (error, pointer) in errors.iter().zip(&pointers) {
            let reason = match error.kind() {
                // A field whose own schema failed leaves no annotation, so the object around it
                // also calls it unexpected: only the fields that failed nothing else are.
                ValidationErrorKind::UnevaluatedProperties { unexpected } => {
                    let extra: Vec<&String> = unexpected
                        .iter()
                        .filter(|field| {
                            let below = format!("{pointer}/{field}");
                            !pointers
                                .iter()
                                .any(|p| p == &below || p.starts_with(&format!("{below}/")))
                        })
                        .collect();
                    if extra.is_empty() {
                        continue;
                    }
                    let names: Vec<&str> = extra.iter().map(|field| field.as_str()).collect();
                    format!("campos que o schema não prevê: {}", names.join(", "))
                }
                _ => error.to_string(),
            };
            let propriedade = self.property(pointer);
            violations.push(Violation {
                razao: format!("O campo {propriedade} não respeita o schema: {reason}."),
                propriedade,
            });
        }
        violations
    }

    /// A JSON pointer into the body as the spec's `violacoes` name it: `cob.valor.original`.
    fn property(&self, pointer: &str) -> String {
        let mut propriedade = self.body_prefix().to_owned();
        for part in pointer.split('/').filter(|part| !part.is_empty()) {
            propriedade.push('.');
            propriedade.push_str(part);
        }
        propriedade
    }

    /// How the spec's `violacoes` name the body of this operation (`cob.valor.original`).
    fn body_prefix(&self) -> &'static str {
        let first = self.segments.first();
        match first {
            Some(Segment::Literal(literal)) => match literal.as_str() {
                "cob" => "cob",
                "cobv" => "cobv",
                "webhook" => "webhook",
                "pix" => "devolucao",
                "loc" => "loc",
                "lotecobv" => "loteCobV",
                _ => "corpo",
            },
            _ => "corpo",
        }
    }
}

impl Param {
    fn check(&self, raw: &str) -> Vec<Violation> {
        let value = match self.kind {
            ParamType::String => Value::String(raw.to_owned()),
            ParamType::Integer => match raw.parse::<i64>() {
                Ok(number) => Value::from(number),
                Err(_) => return vec![self.violation(raw, "não é um número inteiro")],
            },
            ParamType::Number => match raw.parse::<serde_json::Number>() {
                Ok(number) => Value::Number(number),
                Err(_) => return vec![self.violation(raw, "não é um número")],
            },
            ParamType::Boolean => match raw {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ => return vec![self.violation(raw, "não é true nem false")],
            },
        };
        self.validator
            .iter_errors(&value)
            .map(|error| self.violation(raw, &format!("não respeita o schema: {error}")))
            .collect()
    }

    fn violation(&self, raw: &str, what: &str) -> Violation {
        Violation {
            razao: format!("O parâmetro {} ({raw:?}) {what}.", self.name),
            propriedade: self.name.clone(),
        }
    }
}

/// Follows `$ref`s (`#/components/…`) until a node is not one, inlining nested ones too.
/// `seen` holds the references being expanded, so a recursive schema stops instead of looping.
fn resolve(document: &Value, node: &Value, seen: &mut Vec<String>) -> Value {
    match node {
        Value::Object(map) => {
            if let Some(reference) = map.get("$ref").and_then(Value::as_str) {
                if seen.iter().any(|r| r == reference) {
                    return Value::Object(Map::new());
                }
                let target = reference
                    .strip_prefix('#')
                    .and_then(|pointer| document.pointer(pointer))
                    .unwrap_or_else(|| panic!("the spec's reference {reference} resolves"));
                seen.push(reference.to_owned());
                let mut resolved = resolve(document, target, seen);
                seen.pop();
                // OpenAPI 3.0 ignores a `$ref`'s siblings; keep those that only describe it.
                if let Value::Object(resolved_map) = &mut resolved {
                    for (key, value) in map {
                        if key != "$ref" && !resolved_map.contains_key(key) {
                            resolved_map.insert(key.clone(), value.clone());
                        }
                    }
                }
                return resolved;
            }
            Value::Object(
                map.iter()
                    .map(|(key, value)| {
                        let value = if key == "example" || key == "examples" {
                            value.clone()
                        } else {
                            resolve(document, value, seen)
                        };
                        (key.clone(), value)
                    })
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| resolve(document, item, seen))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A resolved OpenAPI 3.0 schema as JSON Schema 2020-12 (patterns whole-value; objects closed
/// when `close` is set, for request bodies).
fn to_json_schema(mut schema: Value, close: bool) -> Value {
    strip_documentation(&mut schema);
    later_pattern_wins(&mut schema);
    anchor_patterns(&mut schema);
    if close {
        close_objects(&mut schema, false);
    }
    schema
}

/// `example`s and `description`s are documentation; dropping them keeps the compiled schemas
/// small (and the spec's examples are not always schemas' values).
fn strip_documentation(node: &mut Value) {
    match node {
        Value::Object(map) => {
            map.remove("example");
            map.remove("examples");
            map.remove("description");
            map.remove("default");
            for (key, value) in map.iter_mut() {
                // Under `properties` the keys are field names, which may be named like keywords.
                if key == "properties" {
                    if let Value::Object(fields) = value {
                        fields.values_mut().for_each(strip_documentation);
                    }
                } else {
                    strip_documentation(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(strip_documentation),
        _ => {}
    }
}

/// The spec widens a Pix's `txid` (`TxId`, 26 to 35 characters, for charges) with
/// `allOf: [TxId, {pattern: "[a-zA-Z0-9]{1,35}"}]`, meaning "this pattern instead": static codes'
/// txids have 1 to 25. JSON Schema would demand both patterns, so the later one replaces the
/// earlier ones.
fn later_pattern_wins(node: &mut Value) {
    match node {
        Value::Object(map) => {
            if let Some(Value::Array(parts)) = map.get_mut("allOf")
                && let Some(last) = parts.last()
                && last
                    .as_object()
                    .is_some_and(|part| part.len() == 1 && part.contains_key("pattern"))
            {
                let count = parts.len();
                for part in parts.iter_mut().take(count - 1) {
                    if let Value::Object(part) = part {
                        part.remove("pattern");
                    }
                }
            }
            map.values_mut().for_each(later_pattern_wins);
        }
        Value::Array(items) => items.iter_mut().for_each(later_pattern_wins),
        _ => {}
    }
}

fn anchor_patterns(node: &mut Value) {
    match node {
        Value::Object(map) => {
            if let Some(Value::String(pattern)) = map.get_mut("pattern") {
                let inner = pattern
                    .strip_prefix('/')
                    .and_then(|p| p.strip_suffix('/'))
                    .unwrap_or(pattern)
                    .to_owned();
                let inner = inner.strip_prefix('^').unwrap_or(&inner);
                let inner = inner.strip_suffix('$').unwrap_or(inner);
                *pattern = format!("^(?:{inner})$");
            }
            for (key, value) in map.iter_mut() {
                if key != "pattern" {
                    anchor_patterns(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(anchor_patterns),
        _ => {}
    }
}

/// The spec's answers give `location` as host and path without a scheme (its own examples:
/// `pix.example.com/qr/v2/…`, as the BR Code carries it), yet mark it `format: uri`, which needs
/// a scheme: in the answers' schemas, `uri` is not checked.
fn drop_uri_formats(node: &mut Value) {
    match node {
        Value::Object(map) => {
            if map.get("format").and_then(Value::as_str) == Some("uri") {
                map.remove("format");
            }
            map.values_mut().for_each(drop_uri_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_uri_formats),
        _ => {}
    }
}

const COMPOSITIONS: [&str; 3] = ["allOf", "oneOf", "anyOf"];

/// Whether `node` (or what it composes) declares fields.
fn declares_fields(node: &Value) -> bool {
    node.get("properties").is_some()
        || COMPOSITIONS.iter().any(|keyword| {
            node.get(keyword)
                .and_then(Value::as_array)
                .is_some_and(|parts| parts.iter().any(declares_fields))
        })
}

/// Closes every object schema that declares fields, except the parts of a composition: those
/// are closed by the schema that composes them, which sees all their fields.
fn close_objects(node: &mut Value, part_of_composition: bool) {
    let Value::Object(map) = node else { return };
    let closes = !part_of_composition
        && !map.contains_key("additionalProperties")
        && !map.contains_key("unevaluatedProperties")
        && declares_fields(&Value::Object(map.clone()));
    for (key, value) in map.iter_mut() {
        match key.as_str() {
            "properties" => {
                if let Value::Object(fields) = value {
                    fields
                        .values_mut()
                        .for_each(|field| close_objects(field, false));
                }
            }
            "items" | "additionalProperties" | "not" => close_objects(value, false),
            keyword if COMPOSITIONS.contains(&keyword) => {
                if let Value::Array(parts) = value {
                    parts.iter_mut().for_each(|part| close_objects(part, true));
                }
            }
            _ => {}
        }
    }
    if closes {
        map.insert("unevaluatedProperties".to_owned(), Value::Bool(false));
    }
}

fn compile_schema(schema: &Value) -> Validator {
    jsonschema::options()
        .with_draft(Draft::Draft202012)
        .should_validate_formats(true)
        .build(schema)
        .unwrap_or_else(|error| panic!("the spec's schema compiles: {error}\n{schema:#}"))
}

/// `%XX` escapes of a path segment, as UTF-8 (an invalid escape is kept as it is).
pub(crate) fn percent_decode(raw: &str) -> String {
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%' && i + 2 < bytes.len())
            .then(|| Some(hex_digit(bytes[i + 1])? * 16 + hex_digit(bytes[i + 2])?))
            .flatten();
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_digit(byte: u8) -> Option<u8> {
    (byte as char)
        .to_digit(16)
        .and_then(|digit| u8::try_from(digit).ok())
}
